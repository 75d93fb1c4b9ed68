import Vapor

/// Where people meet: the feed of what friends, the people one follows and one's teams did.
enum Community: Feature {
    static func boot(_ app: Application) throws {
        try app.register(collection: FeedController())
        try app.register(collection: KudosController())
    }
}
