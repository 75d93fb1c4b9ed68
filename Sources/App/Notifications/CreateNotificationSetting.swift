import Fluent

struct CreateNotificationSetting: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(NotificationSetting.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("topic", .string, .required)
            .field("in_app", .bool, .required)
            .field("email", .bool, .required)
            .unique(on: "user_id", "topic")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NotificationSetting.schema).delete()
    }
}
