import Fluent
import SQLKit

struct CreateFeedComment: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(FeedComment.schema)
            .id()
            .field("subject", .string, .required)
            .field("author_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("owner_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("body", .string, .required)
            .field("created_at", .datetime)
            .create()
        let sql = database.sql
        try await sql.create(index: "feed_comments_subject_idx").on(FeedComment.schema).column("subject").column("created_at").run()
        try await sql.create(index: "feed_comments_author_idx").on(FeedComment.schema).column("author_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FeedComment.schema).delete()
    }
}
