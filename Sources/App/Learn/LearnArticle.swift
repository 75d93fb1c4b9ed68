import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// A Learn article. The row holds what readers see: the published revision once there is one,
/// else the newest draft (which only editors see). `html` is the Markdown rendered once per
/// revision, so a page view never runs Markdown; `text` is the plain text that search reads.
/// The slug is chosen once and survives title changes; a changed slug leaves a `LearnSlug`
/// behind that redirects.
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
    /// The revision readers see; nil while the article has never been published.
    @OptionalField(key: "published_revision_id") var publishedRevisionID: UUID?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    /// Takes the document's fields, renders it, and says whether anything changed.
    @discardableResult
    func apply(_ document: LearnDocument) -> Bool {
        let videoText = document.videos.map(\.line).joined(separator: "\n")
        let changed =
            id == nil || title != document.title || category != document.category || summary != document.summary
            || audience != document.audience || videos != videoText || body != document.body
        guard changed || slug != document.slug else { return false }
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

    /// Saves `document` as a new revision and makes it the one readers see (the shipped files and
    /// the benchmark library; editors go through `LearnEditorController`, which also keeps drafts).
    func publish(_ document: LearnDocument, author: UUID?, on db: any Database) async throws {
        apply(document)
        published = true
        if id == nil { try await create(on: db) }
        let revision = LearnRevision(article: try requireID(), document: document, author: author)
        revision.publishedAt = Date()
        try await revision.create(on: db)
        publishedRevisionID = try revision.requireID()
        try await save(on: db)
    }

    var videoLinks: [LearnDocument.Video] { LearnArticle.videos(videos) }

    /// Stored video lines back to videos (they were checked when saved).
    static func videos(_ text: String) -> [LearnDocument.Video] {
        text.split(separator: "\n").compactMap { try? LearnDocument.Video(line: String($0)) }
    }
}

/// Every saved version of an article's text, oldest first.
final class LearnRevision: Model, @unchecked Sendable {
    static let schema = "learn_revisions"

    @ID(key: .id) var id: UUID?
    @Parent(key: "article_id") var article: LearnArticle
    @Field(key: "title") var title: String
    @Field(key: "category") var category: String
    @Field(key: "summary") var summary: String
    @Field(key: "audience") var audience: String
    @Field(key: "videos") var videos: String
    @Field(key: "body") var body: String
    /// Who saved it; nil for the files shipped with Fieldhouse.
    @OptionalField(key: "author_id") var authorID: UUID?
    /// When this revision was (first) made the one readers see; nil for drafts never published.
    @OptionalField(key: "published_at") var publishedAt: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(article: UUID, document: LearnDocument, author: UUID?) {
        self.$article.id = article
        title = document.title
        category = document.category
        summary = document.summary
        audience = document.audience
        videos = document.videos.map(\.line).joined(separator: "\n")
        body = document.body
        authorID = author
    }

    func document(slug: String) -> LearnDocument {
        LearnDocument(
            title: title, slug: slug, category: category, summary: summary, audience: audience,
            videos: LearnArticle.videos(videos), body: body)
    }
}

/// A slug an article had before; `/learn/{old}` redirects to the article's slug now.
final class LearnSlug: Model, @unchecked Sendable {
    static let schema = "learn_slugs"

    @ID(key: .id) var id: UUID?
    @Field(key: "slug") var slug: String
    @Parent(key: "article_id") var article: LearnArticle
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(slug: String, article: UUID) {
        self.slug = slug
        self.$article.id = article
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

/// Revisions keep every field of the article, and whether they were ever published.
struct AddDetailsToLearnRevisions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // SQLite adds one column per statement.
        for name in ["category", "summary", "audience", "videos"] {
            try await database.schema(LearnRevision.schema).field(
                .definition(name: .key(.string(name)), dataType: .string, constraints: [.required, .sql(.default(""))])
            ).update()
        }
        try await database.schema(LearnRevision.schema).field("published_at", .datetime).update()
        let sql = database as! any SQLDatabase
        // Until now every revision came from the shipped files, published on import.
        for name in ["category", "summary", "audience", "videos"] {
            try await sql.raw(
                "UPDATE learn_revisions SET \(unsafeRaw: name) = (SELECT a.\(unsafeRaw: name) FROM learn_articles a WHERE a.id = learn_revisions.article_id)"
            ).run()
        }
        try await sql.raw("UPDATE learn_revisions SET published_at = created_at").run()
    }

    func revert(on database: any Database) async throws {
        for name in ["category", "summary", "audience", "videos", "published_at"] {
            try await database.schema(LearnRevision.schema).deleteField(.string(name)).update()
        }
    }
}

struct AddPublishedRevisionToLearnArticles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LearnArticle.schema).field("published_revision_id", .uuid).update()
        try await (database as! any SQLDatabase).raw(
            """
            UPDATE learn_articles SET published_revision_id = (SELECT r.id FROM learn_revisions r WHERE r.article_id = learn_articles.id
            ORDER BY r.created_at DESC LIMIT 1) WHERE published = \(bind: true)
            """
        ).run()
        // Search and the library are read by the newest change (see `LearnCatalog`).
        try await (database as! any SQLDatabase).create(index: "learn_articles_updated").on(LearnArticle.schema).column("updated_at").run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).drop(index: "learn_articles_updated").run()
        try await database.schema(LearnArticle.schema).deleteField("published_revision_id").update()
    }
}

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
