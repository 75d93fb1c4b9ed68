import Fluent

/// The clock a person reads times in ("12h"); none means the 24-hour clock every page used before.
struct AddClockToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("clock", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("clock").update()
    }
}
