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
    func publish(_ document: LearnDocument, author: UUID?, at now: Date, on db: any Database) async throws {
        apply(document)
        published = true
        if id == nil { try await create(on: db) }
        let revision = LearnRevision(article: try requireID(), document: document, author: author)
        revision.publishedAt = now
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
