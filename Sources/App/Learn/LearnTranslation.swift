import FieldhouseKit
import Fluent
import Foundation

/// An article in another language than English: same slug and category, its own title, summary,
/// audience and text. Readers of that language get it; the others the English article. Shipped
/// as `Resources/Learn/<slug>.<language>.md` (with `lang:` in the front matter) and written by
/// editors under "Edit" with the language chosen.
final class LearnTranslation: Model, @unchecked Sendable {
    static let schema = "learn_translations"

    @ID(key: .id) var id: UUID?
    @Parent(key: "article_id") var article: LearnArticle
    @Field(key: "language") var language: String
    @Field(key: "title") var title: String
    @Field(key: "summary") var summary: String
    @Field(key: "audience") var audience: String
    @Field(key: "body") var body: String
    @Field(key: "html") var html: String
    @Field(key: "text") var text: String
    @Field(key: "reading_minutes") var readingMinutes: Int
    /// Who last saved it in the browser; nil for the shipped file, which an import may update.
    @OptionalField(key: "author_id") var authorID: UUID?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    init(article: UUID, language: Language) {
        self.$article.id = article
        self.language = language.rawValue
    }

    /// Takes the document's words (its slug, category and videos are the article's) and says
    /// whether anything changed.
    @discardableResult
    func apply(_ document: LearnDocument) -> Bool {
        guard id == nil || title != document.title || summary != document.summary || audience != document.audience || body != document.body
        else { return false }
        title = document.title
        summary = document.summary
        audience = document.audience
        body = document.body
        html = LearnRendering.html(document.body)
        text = document.plainText
        readingMinutes = document.readingMinutes
        return true
    }

    /// The language a shipped file is written in: `hydration.pt-PT.md` is Portuguese, and its front
    /// matter must say so (`lang: pt-PT`); `hydration.md` is English.
    static func language(ofFile name: String, text: String) throws -> Language {
        let parts = name.split(separator: ".")
        guard parts.count == 3 else { return .en }
        guard let language = Language(rawValue: String(parts[1])), language != .en else {
            throw UserCommands.CommandError("\(name): \(parts[1]) is not a language Fieldhouse has")
        }
        let declared = text.split(separator: "\n").prefix(20).first { $0.hasPrefix("lang:") }.map {
            $0.dropFirst(5).trimmingCharacters(in: .whitespaces)
        }
        guard declared == language.rawValue else { throw UserCommands.CommandError("\(name): its front matter must say lang: \(language.rawValue)") }
        return language
    }
}

struct CreateLearnTranslation: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LearnTranslation.schema)
            .id()
            .field("article_id", .uuid, .required, .references(LearnArticle.schema, .id, onDelete: .cascade))
            .field("language", .string, .required)
            .field("title", .string, .required)
            .field("summary", .string, .required)
            .field("audience", .string, .required)
            .field("body", .string, .required)
            .field("html", .string, .required)
            .field("text", .string, .required)
            .field("reading_minutes", .int, .required)
            .field("author_id", .uuid)
            .field("updated_at", .datetime)
            .unique(on: "article_id", "language")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LearnTranslation.schema).delete()
    }
}
