import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/learn`: the library by category with a ranked search, and `/learn/{slug}`: an article with
/// its table of contents, video link cards and related articles. Anyone may read published
/// articles.
struct LearnController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("learn", use: library)
        routes.get("learn", ":slug", use: article)
    }

    struct Card: Encodable {
        let slug: String
        let title: String
        /// Escaped text with the search words in <mark>.
        let summary: String
        let minutes: Int
    }

    struct Category: Encodable {
        let name: String
        let articles: [Card]
    }

    struct LibraryPage: Encodable {
        let layout: Layout
        let q: String
        let searched: Bool
        let results: [Card]
        let categories: [Category]
    }

    struct Row: Decodable {
        let slug: String
        let title: String
        let category: String
        let summary: String
        let text: String
        let reading_minutes: Int
    }

    func library(req: Request) async throws -> Response {
        let q = (req.query[String.self, at: "q"] ?? "").trimmingCharacters(in: .whitespaces)
        let words = Array(Set(q.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { $0.count >= 2 })).prefix(8)
        let sql = req.db as! any SQLDatabase
        var results: [Card]?
        var categories: [Category] = []
        if words.isEmpty {
            let rows = try await sql.raw("""
                SELECT slug, title, category, summary, '' AS text, reading_minutes FROM learn_articles WHERE published = \(bind: true) ORDER BY title
                """).all(decoding: Row.self)
            let names = LearnLibrary.categories + Set(rows.map(\.category)).subtracting(LearnLibrary.categories).sorted()
            categories = names.compactMap { name in
                let cards = rows.filter { $0.category == name }.map { Card(slug: $0.slug, title: $0.title, summary: Self.escape($0.summary), minutes: $0.reading_minutes) }
                return cards.isEmpty ? nil : Category(name: name, articles: cards)
            }
        } else {
            // Articles holding any of the words; ranked by where and how often they appear.
            var query = SQLQueryString("SELECT slug, title, category, summary, text, reading_minutes FROM learn_articles WHERE published = ")
            query.appendInterpolation(bind: true)
            query.appendInterpolation(unsafeRaw: " AND (")
            for (index, word) in words.enumerated() {
                if index > 0 { query.appendInterpolation(unsafeRaw: " OR ") }
                query.appendInterpolation(unsafeRaw: "LOWER(title) LIKE ")
                query.appendInterpolation(bind: "%\(word)%")
                query.appendInterpolation(unsafeRaw: " OR LOWER(text) LIKE ")
                query.appendInterpolation(bind: "%\(word)%")
            }
            query.appendInterpolation(unsafeRaw: ")")
            let rows = try await sql.raw(query).all(decoding: Row.self)
            func score(_ row: Row) -> Int {
                let title = row.title.lowercased(), summary = row.summary.lowercased(), text = row.text.lowercased()
                return words.reduce(0) { total, word in
                    total + (title.contains(word) || row.slug.contains(word) ? 20 : 0) + (summary.contains(word) ? 5 : 0)
                        + min(text.components(separatedBy: word).count - 1, 10)
                }
            }
            results = rows.map { ($0, score($0)) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.title < $1.0.title }.map { row, _ in
                Card(slug: row.slug, title: row.title, summary: Self.highlight(Self.snippet(row, words: Array(words)), words: Array(words)), minutes: row.reading_minutes)
            }
        }
        let page = LibraryPage(layout: req.layout(title: "Learn", section: "learn", hasForms: true), q: q, searched: results != nil,
                               results: results ?? [], categories: categories)
        return try await req.view.render("learn/library", page).encodeResponse(for: req)
    }

    /// The summary when it holds a search word, else the sentence of the text that does.
    private static func snippet(_ row: Row, words: [String]) -> String {
        let summary = row.summary.lowercased()
        if words.contains(where: { summary.contains($0) }) { return row.summary }
        let text = row.text
        guard let hit = words.compactMap({ text.range(of: $0, options: .caseInsensitive) }).min(by: { $0.lowerBound < $1.lowerBound }) else { return row.summary }
        var start = text.index(hit.lowerBound, offsetBy: -80, limitedBy: text.startIndex) ?? text.startIndex
        var end = text.index(hit.upperBound, offsetBy: 120, limitedBy: text.endIndex) ?? text.endIndex
        // Whole words at both ends.
        if start > text.startIndex, let space = text[start..<hit.lowerBound].firstIndex(of: " ") { start = text.index(after: space) }
        if end < text.endIndex, let space = text[hit.upperBound..<end].lastIndex(of: " ") { end = space }
        return (start > text.startIndex ? "…" : "") + text[start..<end] + (end < text.endIndex ? "…" : "")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Escapes the text, then marks each search word (the words are letters and digits only, so
    /// they cannot meet an escape sequence halfway).
    static func highlight(_ text: String, words: [String]) -> String {
        var html = escape(text)
        for word in words.sorted(by: { $0.count > $1.count }) {
            guard let regex = try? NSRegularExpression(pattern: "(?<![\\w&])(" + NSRegularExpression.escapedPattern(for: word) + ")", options: .caseInsensitive) else { continue }
            html = regex.stringByReplacingMatches(in: html, range: NSRange(html.startIndex..., in: html), withTemplate: "<mark>$1</mark>")
        }
        return html
    }

    struct ArticlePage: Encodable {
        let layout: Layout
        let title: String
        let category: String
        let summary: String
        let audience: String
        let minutes: Int
        let updated: String
        let html: String
        let toc: [LearnRendering.Heading]
        let videos: [Video]
        let related: [Card]
    }

    struct Video: Encodable {
        let title: String
        let url: String
        let host: String
    }

    func article(req: Request) async throws -> Response {
        guard let slug = req.parameters.get("slug"),
              let article = try await LearnArticle.query(on: req.db).filter(\.$slug == slug).filter(\.$published == true).first() else {
            throw Abort(.notFound)
        }
        let related = try await LearnArticle.query(on: req.db).filter(\.$category == article.category).filter(\.$slug != slug)
            .filter(\.$published == true).sort(\.$title).limit(4).all()
        let updated = article.updatedAt ?? article.createdAt ?? Date()
        let day = WallClock(updated, zone: TimeZone(identifier: "UTC")!)
        let page = ArticlePage(
            layout: req.layout(title: article.title, section: "learn"), title: article.title, category: article.category,
            summary: article.summary, audience: article.audience, minutes: article.readingMinutes,
            updated: "\(day.day) \(WallClock.shortMonths[day.month - 1]) \(day.year)", html: article.html,
            toc: LearnRendering.headings(in: article.html),
            videos: article.videoLinks.map { Video(title: $0.title, url: $0.url, host: URL(string: $0.url)?.host ?? "") },
            related: related.map { Card(slug: $0.slug, title: $0.title, summary: Self.escape($0.summary), minutes: $0.readingMinutes) })
        return try await req.view.render("learn/article", page).encodeResponse(for: req)
    }
}
