import Fluent

struct CreateConversationMember: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ConversationMember.schema)
            .id()
            .field("conversation_id", .uuid, .required, .references(Conversation.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("last_read_at", .datetime, .required)
            .field("muted", .bool, .required)
            .unique(on: "user_id", "conversation_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ConversationMember.schema).delete()
    }
}
