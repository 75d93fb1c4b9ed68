import FieldhouseKit
import Fluent
import Foundation
import SQLKit

struct CreateLeague: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(League.schema)
            .id()
            .field("slug", .string, .required)
            .field("name", .string, .required)
            .field("sport", .string, .required)
            .field("skill", .string, .required)
            .field("age_group", .string, .required)
            .field("gender", .string, .required)
            .field("place_name", .string)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("is_private", .bool, .required)
            .field("manager_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("created_at", .datetime)
            .unique(on: "slug")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(League.schema).delete()
    }
}
