import Fluent

struct CreateNearbyAlert: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(NearbyAlert.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("last_sent_at", .datetime, .required)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NearbyAlert.schema).delete()
    }
}
