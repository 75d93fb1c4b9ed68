import Fluent
import SQLKit

struct CreateMessage: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Message.schema)
            .id()
            .field("conversation_id", .uuid, .required, .references(Conversation.schema, "id", onDelete: .cascade))
            .field("author_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("body", .string, .required)
            .field("reply_to_id", .uuid, .references(Message.schema, "id", onDelete: .setNull))
            .field("created_at", .datetime, .required)
            .field("edited_at", .datetime)
            .field("hidden_at", .datetime)
            .field("client_key", .string)
            .unique(on: "author_id", "client_key")
            .create()
        let sql = database.sql
        try await sql.create(index: "messages_conversation_idx").on(Message.schema).column("conversation_id").column("created_at").run()
        try await sql.create(index: "messages_author_idx").on(Message.schema).column("author_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Message.schema).delete()
    }
}
