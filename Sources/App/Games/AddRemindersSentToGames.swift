import Fluent

/// Whether the day-before and the two-hours-before reminders of a game went out; both go back to
/// false when the game moves.
struct AddRemindersSentToGames: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one at a time.
        try await database.schema(Game.schema).field("day_reminder_sent", .bool, .required, .sql(.default(false))).update()
        try await database.schema(Game.schema).field("soon_reminder_sent", .bool, .required, .sql(.default(false))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Game.schema).deleteField("day_reminder_sent").update()
        try await database.schema(Game.schema).deleteField("soon_reminder_sent").update()
    }
}
