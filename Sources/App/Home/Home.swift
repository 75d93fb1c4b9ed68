import SQLKit
import Vapor

/// The front door: the landing page, the signed-in dashboard, and the health check.
enum Home: Feature {
    static var routePatterns: [String] { HomePath.patterns }

    static func boot(_ app: Application) throws {
        app.get(HomePath.healthz) { req async throws -> Response in
            // A real round trip, so a load balancer takes a process whose database is gone out of rotation.
            _ = try await req.db.sql.raw("SELECT 1 AS ok").all()
            return Response(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"], body: .init(string: "ok"))
        }
        try app.register(collection: HomeController())
        try app.register(collection: MetricsController())
    }
}
