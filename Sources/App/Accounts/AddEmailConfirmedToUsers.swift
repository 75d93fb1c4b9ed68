import Fluent

/// E-mail goes only to addresses their owner confirmed by opening a link sent to them.
struct AddEmailConfirmedToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("email_confirmed_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("email_confirmed_at").update()
    }
}
