import Fluent
import Foundation

struct CreateDeviceToken: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DeviceToken.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("token_hash", .string, .required)
            .field("last_used_at", .datetime)
            .field("revoked_at", .datetime)
            .field("created_at", .datetime)
            .unique(on: "token_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DeviceToken.schema).delete()
    }
}
