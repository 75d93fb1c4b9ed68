import Fluent
import SQLKit

struct CreateTeamInvite: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TeamInvite.schema)
            .id()
            .field("team_id", .uuid, .required, .references(Team.schema, .id, onDelete: .cascade))
            .field("invitee_id", .uuid, .references(User.schema, .id, onDelete: .cascade))
            .field("token_hash", .string)
            .field("created_by_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("created_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await database.sql.create(index: "team_invites_invitee_idx")
            .on(TeamInvite.schema).column("invitee_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TeamInvite.schema).delete()
    }
}
