import Fluent

/// Invitations held back from a child (see `TeamInvite.held`).
struct AddHeldToTeamInvites: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TeamInvite.schema).field("held", .bool, .required, .sql(.default(false))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TeamInvite.schema).deleteField("held").update()
    }
}
