import Fluent

struct CreateOutboxMessage: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(OutboxMessage.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("actor_id", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("to_address", .string, .required)
            .field("topic", .string)
            .field("subject", .string, .required)
            .field("body", .string, .required)
            .field("link", .string)
            .field("link_label", .string)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OutboxMessage.schema).delete()
    }
}
