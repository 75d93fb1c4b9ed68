import Fluent
import SQLKit

struct CreateJoinRequest: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(JoinRequest.schema)
            .id()
            .field("team_id", .uuid, .required, .references(Team.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("message", .string)
            .field("created_at", .datetime)
            .unique(on: "team_id", "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(JoinRequest.schema).delete()
    }
}
