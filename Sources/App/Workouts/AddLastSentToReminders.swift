import Fluent

/// When the reminder was last sent (the occurrence it was sent for), so the job that sends them
/// sends each occurrence once.
struct AddLastSentToReminders: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Reminder.schema).field("last_sent_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Reminder.schema).deleteField("last_sent_at").update()
    }
}
