import Fluent

/// E-mail goes only to addresses their owner confirmed by opening a link sent to them; when the
/// last link went, so nobody can have them sent again and again.
struct AddEmailConfirmedToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one at a time.
        try await database.schema(User.schema).field("email_confirmed_at", .datetime).update()
        try await database.schema(User.schema).field("email_confirmation_sent_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("email_confirmation_sent_at").update()
        try await database.schema(User.schema).deleteField("email_confirmed_at").update()
    }
}
