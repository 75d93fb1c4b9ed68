import Fluent
import Vapor

/// Where people meet: the feed of what friends, the people one follows and one's teams did, plans
/// to do something together, and kudos.
enum Community: Feature {
    static func boot(_ app: Application) throws {
        try app.register(collection: FeedController())
        try app.register(collection: KudosController())
        try app.register(collection: PlanController())
        try app.register(collection: LeaderboardController())
    }

    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        try await planFeedItems(for: viewer, before: before, limit: limit, on: db)
    }
}
