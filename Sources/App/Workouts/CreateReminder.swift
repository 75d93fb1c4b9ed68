import FieldhouseKit
import Fluent
import Foundation

struct CreateReminder: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Reminder.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("title", .string, .required)
            .field("time", .string, .required)
            .field("weekdays", .string, .required)
            .field("alert_minutes", .int, .required)
            .field("enabled", .bool, .required)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Reminder.schema).delete()
    }
}
