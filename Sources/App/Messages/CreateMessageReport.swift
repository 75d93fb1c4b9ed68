import Fluent

struct CreateMessageReport: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageReport.schema)
            .id()
            .field("message_id", .uuid, .required, .references(Message.schema, "id", onDelete: .cascade))
            .field("reporter_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
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
