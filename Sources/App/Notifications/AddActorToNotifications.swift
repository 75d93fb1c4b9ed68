import Fluent

struct AddActorToNotifications: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Notification.schema)
            .field("actor_id", .uuid, .references(User.schema, .id, onDelete: .cascade))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Notification.schema).deleteField("actor_id").update()
    }
}
