import Fluent
import SQLKit

struct CreateBadge: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Badge.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("earned_at", .datetime, .required)
            .field("shared", .bool, .required)
            .field("public", .bool, .required)
            .field("shown_at", .datetime)
            .unique(on: "user_id", "kind")
            .create()
        // The feed reads badges newest first.
        try await database.sql.create(index: "badges_earned_idx").on(Badge.schema).column("earned_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Badge.schema).delete()
    }
}
