import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// A Learn article. `html` is the Markdown rendered once when the text changes (a revision), so
/// a page view never runs Markdown; `text` is the plain text that search reads.
final class LearnArticle: Model, @unchecked Sendable {
    static let schema = "learn_articles"

    @ID(key: .id) var id: UUID?
    @Field(key: "slug") var slug: String
    @Field(key: "title") var title: String
    @Field(key: "category") var category: String
    @Field(key: "summary") var summary: String
    @Field(key: "audience") var audience: String
    /// "Title | https://…" per line.
    @Field(key: "videos") var videos: String
    @Field(key: "body") var body: String
    @Field(key: "html") var html: String
    @Field(key: "text") var text: String
    @Field(key: "reading_minutes") var readingMinutes: Int
    @Field(key: "published") var published: Bool
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    /// Takes the document's fields, renders it, and says whether anything changed.
    @discardableResult
    func apply(_ document: LearnDocument) -> Bool {
        let videoText = document.videos.map { "\($0.title) | \($0.url)" }.joined(separator: "\n")
        let changed = id == nil || title != document.title || category != document.category || summary != document.summary
            || audience != document.audience || videos != videoText || body != document.body
        guard changed else { return false }
        slug = document.slug
        title = document.title
        category = document.category
        summary = document.summary
        audience = document.audience
        videos = videoText
        body = document.body
        html = LearnRendering.html(document.body)
        text = document.plainText
        readingMinutes = document.readingMinutes
        return true
    }

    var videoLinks: [LearnDocument.Video] {
        videos.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.count == 2 ? LearnDocument.Video(title: parts[0], url: parts[1]) : nil
        }
    }
}

/// Every saved version of an article's text, oldest first.
final class LearnRevision: Model, @unchecked Sendable {
    static let schema = "learn_revisions"

    @ID(key: .id) var id: UUID?
    @Parent(key: "article_id") var article: LearnArticle
    @Field(key: "title") var title: String
    @Field(key: "body") var body: String
    /// Who saved it; nil for the files shipped with Fieldhouse.
    @OptionalField(key: "author_id") var authorID: UUID?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(article: UUID, title: String, body: String, author: UUID?) {
        self.$article.id = article
        self.title = title
        self.body = body
        self.authorID = author
    }
}

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
        try await (database as! any SQLDatabase).create(index: "learn_revisions_article").on(LearnRevision.schema).column("article_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LearnRevision.schema).delete()
        try await database.schema(LearnArticle.schema).delete()
    }
}
