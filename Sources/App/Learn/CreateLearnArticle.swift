import FieldhouseKit
import Fluent
import SQLKit
import Vapor

struct CreateLearnArticle: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LearnArticle.schema)
            .id()
            .field("slug", .string, .required)
            .field("title", .string, .required)
            .field("category", .string, .required)
            .field("summary", .string, .required)
            .field("audience", .string, .required)
            .field("videos", .string, .required)
            .field("body", .string, .required)
            .field("html", .string, .required)
            .field("text", .string, .required)
            .field("reading_minutes", .int, .required)
            .field("published", .bool, .required)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .unique(on: "slug")
            .create()
        try await database.schema(LearnRevision.schema)
            .id()
            .field("article_id", .uuid, .required, .references(LearnArticle.schema, .id, onDelete: .cascade))
            .field("title", .string, .required)
            .field("body", .string, .required)
            .field("author_id", .uuid, .references(User.schema, .id, onDelete: .setNull))
            .field("created_at", .datetime)
            .create()
        try await database.sql.create(index: "learn_revisions_article").on(LearnRevision.schema).column("article_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LearnRevision.schema).delete()
        try await database.schema(LearnArticle.schema).delete()
    }
}
