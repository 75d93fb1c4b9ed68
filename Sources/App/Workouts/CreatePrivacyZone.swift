import FieldhouseKit
import Fluent
import Foundation

struct CreatePrivacyZone: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SavedPrivacyZone.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("lat", .double, .required)
            .field("lon", .double, .required)
            .field("radius_m", .double, .required)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SavedPrivacyZone.schema).delete()
    }
}
