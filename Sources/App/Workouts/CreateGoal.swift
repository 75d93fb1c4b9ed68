import FieldhouseKit
import Fluent
import Foundation

struct CreateGoal: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Goal.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("period", .string, .required)
            .field("metric", .string, .required)
            .field("target", .double, .required)
            .field("enabled", .bool, .required)
            .field("reached_period", .string)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Goal.schema).delete()
    }
}
