import Fluent
import SQLKit

struct CreateMembership: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Membership.schema)
            .id()
            .field("team_id", .uuid, .required, .references(Team.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("role", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "team_id", "user_id")
            .create()
        try await database.sql.create(index: "memberships_user_idx")
            .on(Membership.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Membership.schema).delete()
    }
}
