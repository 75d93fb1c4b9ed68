import Fluent

struct CreateMessageReport: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageReport.schema)
            .id()
            .field("message_id", .uuid, .references(Message.schema, "id", onDelete: .setNull))
            .field("reporter_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("author_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("body", .string, .required)
            .field("conversation_kind", .string, .required)
            .field("reason", .string, .required)
            .field("created_at", .datetime, .required)
            .field("resolved_at", .datetime)
            .unique(on: "message_id", "reporter_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MessageReport.schema).delete()
    }
}
