import Fluent

/// The language a person chose for pages, notifications and e-mails; none means "as my browser".
struct AddLanguageToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("language", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("language").update()
    }
}
