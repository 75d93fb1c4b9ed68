import Fluent
import SQLKit

struct CreatePushSubscription: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PushSubscription.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("endpoint", .string, .required)
            .field("p256dh", .string, .required)
            .field("auth", .string, .required)
            .field("topics", .string, .required)
            .field("created_at", .datetime)
            .field("last_success_at", .datetime)
            .unique(on: "endpoint")
            .create()
        try await database.sql.raw("CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PushSubscription.schema).delete()
    }
}
