import Fluent
import Foundation

struct CreateRoute: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Route.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("distance_m", .double, .required)
            .field("points", .string, .required)
            .field("point_count", .int, .required)
            .field("sha256", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "user_id", "sha256")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Route.schema).delete()
    }
}
