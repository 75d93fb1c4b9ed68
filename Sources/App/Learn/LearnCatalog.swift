import FieldhouseKit
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// The published library held in memory: every published article with its rendered HTML, the
/// cards by category and a word index for search. Readers never wait on the database for Learn:
/// the catalog is rebuilt when an article changes. A change saved through this server shows at
/// once (`changed()`); one made by another process (`fieldhouse learn import`) within a second,
/// the longest the catalog trusts itself before asking the database again.
final class LearnCatalog: Sendable {
    struct Article: Sendable {
        let id: UUID
        let slug: String
        let title: String
        let category: String
        let summary: String
        let audience: String
        let text: String
        let html: String
        let minutes: Int
        let videos: [LearnDocument.Video]
        /// When the published revision was saved.
        let updated: Date
        /// Who wrote the first revision and who saved the published one; nil for shipped files.
        let author: String?
        let reviser: String?
        /// The table of contents, found once per revision rather than per page view.
        let toc: [LearnRendering.Heading]
    }

    /// An article's words in another language.
    struct Translation: Sendable {
        let title: String
        let summary: String
        let audience: String
        let html: String
        let minutes: Int
        let toc: [LearnRendering.Heading]
    }

    struct Snapshot: Sendable {
        let version: String
        let articles: [Article]
        /// By slug, the languages each article is translated into.
        let translations: [String: [Language: Translation]]
        let bySlug: [String: Int]
        let index: LearnIndex
        /// Per article, up to four others from its category, by title.
        let related: [[Int]]
    }

    private struct State {
        var snapshot: Snapshot?
        /// Monotonic: this only measures how long ago the database was asked.
        var checked: ContinuousClock.Instant?
    }

    private let state = NIOLockedValueBox(State())
    /// How long a snapshot is trusted without asking the database whether anything changed.
    let trust: TimeInterval

    init(trust: TimeInterval = 1) { self.trust = trust }

    /// Forget the snapshot: called after every write through this server.
    func changed() {
        state.withLockedValue { $0 = State() }
    }

    func snapshot(on sql: any SQLDatabase) async throws -> Snapshot {
        let now = ContinuousClock.now
        if let current = state.withLockedValue({ state in state.checked.map { now - $0 < .seconds(trust) } == true ? state.snapshot : nil }) {
            return current
        }
        let version = try await Self.version(on: sql)
        if let current = state.withLockedValue({ $0.snapshot }), current.version == version {
            state.withLockedValue { $0.checked = now }
            return current
        }
        let snapshot = try await Self.load(version: version, on: sql)
        state.withLockedValue { $0 = State(snapshot: snapshot, checked: now) }
        return snapshot
    }

    private struct VersionRow: Decodable {
        let count: Int
        let newest: String?
    }

    /// Changes whenever an article is added or saved (every save touches `updated_at`).
    private static func version(on sql: any SQLDatabase) async throws -> String {
        let row = try await sql.raw("SELECT COUNT(*) AS count, CAST(MAX(updated_at) AS TEXT) AS newest FROM learn_articles")
            .first(decoding: VersionRow.self)
        return "\(row?.count ?? 0)|\(row?.newest ?? "")"
    }

    private struct Row: Decodable {
        let id: UUID
        let slug: String
        let title: String
        let category: String
        let summary: String
        let audience: String
        let text: String
        let html: String
        let reading_minutes: Int
        let videos: String
        let updated: Date?
        let reviser: String?
        let author: String?
    }

    private struct TranslationRow: Decodable {
        let slug: String
        let language: String
        let title: String
        let summary: String
        let audience: String
        let html: String
        let reading_minutes: Int
    }

    private static func load(version: String, on sql: any SQLDatabase) async throws -> Snapshot {
        let rows = try await sql.raw(
            """
            SELECT a.id, a.slug, a.title, a.category, a.summary, a.audience, a.text, a.html, a.reading_minutes, a.videos,
                   r.created_at AS updated, ru.display_name AS reviser,
                   (SELECT fu.display_name FROM learn_revisions f JOIN users fu ON fu.id = f.author_id
                    WHERE f.article_id = a.id ORDER BY f.created_at LIMIT 1) AS author
            FROM learn_articles a
            LEFT JOIN learn_revisions r ON r.id = a.published_revision_id
            LEFT JOIN users ru ON ru.id = r.author_id
            WHERE a.published = \(bind: true)
            ORDER BY a.title
            """
        ).all(decoding: Row.self)
        let articles = rows.map { row in
            Article(
                id: row.id, slug: row.slug, title: row.title, category: row.category, summary: row.summary, audience: row.audience,
                text: row.text, html: row.html, minutes: row.reading_minutes, videos: LearnArticle.videos(row.videos),
                updated: row.updated ?? .distantPast, author: row.author, reviser: row.reviser, toc: LearnRendering.headings(in: row.html))
        }
        let byCategory = Dictionary(grouping: articles.indices, by: { articles[$0].category })
        let related = articles.indices.map { number in
            Array((byCategory[articles[number].category] ?? []).lazy.filter { $0 != number }.prefix(4))
        }
        var translations: [String: [Language: Translation]] = [:]
        for row in try await sql.raw(
            """
            SELECT a.slug, t.language, t.title, t.summary, t.audience, t.html, t.reading_minutes
            FROM learn_translations t JOIN learn_articles a ON a.id = t.article_id
            WHERE a.published = \(bind: true)
            """
        ).all(decoding: TranslationRow.self) {
            guard let language = Language(rawValue: row.language) else { continue }
            translations[row.slug, default: [:]][language] = Translation(
                title: row.title, summary: row.summary, audience: row.audience, html: row.html, minutes: row.reading_minutes,
                toc: LearnRendering.headings(in: row.html))
        }
        return Snapshot(
            version: version, articles: articles, translations: translations,
            bySlug: Dictionary(articles.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { first, _ in first }),
            index: LearnIndex(articles), related: related)
    }
}

extension LearnCatalog.Snapshot {
    func article(_ slug: String) -> LearnCatalog.Article? { bySlug[slug].map { articles[$0] } }

    /// The article in `language` when it is translated into it, else as written (in English).
    func article(_ article: LearnCatalog.Article, in language: Language) -> LearnCatalog.Article {
        guard language != .en, let translation = translations[article.slug]?[language] else { return article }
        return LearnCatalog.Article(
            id: article.id, slug: article.slug, title: translation.title, category: article.category, summary: translation.summary,
            audience: translation.audience, text: article.text, html: translation.html, minutes: translation.minutes, videos: article.videos,
            updated: article.updated, author: article.author, reviser: article.reviser, toc: translation.toc)
    }

    func isTranslated(_ slug: String, into language: Language) -> Bool { language == .en || translations[slug]?[language] != nil }

    func related(to slug: String) -> [LearnCatalog.Article] {
        bySlug[slug].map { related[$0].map { articles[$0] } } ?? []
    }
}
