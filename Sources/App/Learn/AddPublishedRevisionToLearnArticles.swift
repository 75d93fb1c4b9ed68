import FieldhouseKit
import Fluent
import SQLKit
import Vapor

struct AddPublishedRevisionToLearnArticles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LearnArticle.schema).field("published_revision_id", .uuid).update()
        try await database.sql.raw(
            """
            UPDATE learn_articles SET published_revision_id = (SELECT r.id FROM learn_revisions r WHERE r.article_id = learn_articles.id
            ORDER BY r.created_at DESC LIMIT 1) WHERE published = \(bind: true)
            """
        ).run()
        // Search and the library are read by the newest change (see `LearnCatalog`).
        try await database.sql.create(index: "learn_articles_updated").on(LearnArticle.schema).column("updated_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "learn_articles_updated").run()
        try await database.schema(LearnArticle.schema).deleteField("published_revision_id").update()
    }
}
