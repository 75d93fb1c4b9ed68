import Vapor

/// Pages for the people who run the server (the admin role): the background jobs.
enum Admin: Feature {
    static var routePatterns: [String] { AdminPath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: AdminJobsController())
    }
}
