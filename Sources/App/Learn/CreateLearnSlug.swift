import FieldhouseKit
import Fluent
import SQLKit
import Vapor

struct CreateLearnSlug: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LearnSlug.schema)
            .id()
            .field("slug", .string, .required)
            .field("article_id", .uuid, .required, .references(LearnArticle.schema, .id, onDelete: .cascade))
            .field("created_at", .datetime)
            .unique(on: "slug")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LearnSlug.schema).delete()
    }
}
