import Fluent
import Foundation
import SQLKit

struct CreateNotification: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Notification.schema)
            .id()
            .field("recipient_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("kind", .string, .required)
            .field("text", .string, .required)
            .field("link", .string, .required)
            .field("read", .bool, .required)
            .field("created_at", .datetime)
            .create()
        // The header's unread count runs on every signed-in page.
        try await database.sql.create(index: "notifications_recipient_idx")
            .on(Notification.schema).column("recipient_id").column("read").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Notification.schema).delete()
    }
}
