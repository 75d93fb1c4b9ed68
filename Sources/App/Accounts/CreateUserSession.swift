import Fluent
import Vapor

struct CreateUserSession: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserSession.schema)
            .id()
            .field("token_hash", .string, .required)
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("csrf_token", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_seen_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserSession.schema).delete()
    }
}
