import Fluent

/// Coaching requests held back from a child (see `CoachGrant.held`).
struct AddHeldToCoachGrants: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CoachGrant.schema).field("held", .bool, .required, .sql(.default(false))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CoachGrant.schema).deleteField("held").update()
    }
}
