import Fluent
import SQLKit

struct CreateGift: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Gift.schema)
            .id()
            .field("sender_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("recipient_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("subject", .string, .required)
            .field("sticker", .string, .required)
            .field("note", .string, .required)
            .field("created_at", .datetime)
            .create()
        let sql = database.sql
        try await sql.create(index: "gifts_recipient_idx").on(Gift.schema).column("recipient_id").column("created_at").run()
        // The daily limit counts a sender's gifts.
        try await sql.create(index: "gifts_sender_idx").on(Gift.schema).column("sender_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Gift.schema).delete()
    }
}
