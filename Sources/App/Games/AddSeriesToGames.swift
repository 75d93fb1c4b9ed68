import Fluent

/// A team's weekly sessions: each occurrence is a game of its own (answers, substitutes,
/// reminders, calendar entries), and `series_id` ties the occurrences together so one can be
/// changed or cancelled with the ones after it. Nil for a game that does not repeat.
struct AddSeriesToGames: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Game.schema).field("series_id", .uuid).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Game.schema).deleteField("series_id").update()
    }
}
