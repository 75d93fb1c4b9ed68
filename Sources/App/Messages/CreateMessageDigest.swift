import Fluent

struct CreateMessageDigest: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MessageDigest.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("sent_at", .datetime, .required)
            .field("covered_to", .datetime, .required)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MessageDigest.schema).delete()
    }
}
