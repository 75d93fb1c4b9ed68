import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/learn`: the library by category with a ranked search, and `/learn/{slug}`: an article with
/// its table of contents, video link cards and related articles. Anyone may read published
/// articles.
struct LearnController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(LearnPath.learn, use: library)
        routes.get(LearnPath.article, use: article)
    }

    struct Card: Encodable {
        let slug: String
        let title: String
        /// Escaped text with the search words in <mark>.
        let summary: String
        let minutes: Int
        /// "en" for an article not translated into the reader's language yet: the list says so.
        var lang: String? = nil
    }

    /// A card for `article` as `language`'s reader gets it: translated, or marked as English.
    static func card(_ article: LearnCatalog.Article, in language: Language, from snapshot: LearnCatalog.Snapshot) -> Card {
        let shown = snapshot.article(article, in: language)
        return Card(
            slug: shown.slug, title: shown.title, summary: escape(shown.summary), minutes: shown.minutes,
            lang: snapshot.isTranslated(article.slug, into: language) ? nil : "en")
    }

    struct Category: Encodable {
        let name: String
        /// The name as the reader sees it (`name` is what articles store and links use).
        let label: String
        let articles: [Card]
        /// How many there are in all; the library shows the first few of a large category.
        let total: Int
        let link: String
    }

    struct LibraryPage: Encodable {
        let layout: Layout
        let q: String
        let searched: Bool
        let total: Int
        let results: [Card]
        let pager: Pager
        let categories: [Category]
        /// Set when one category is shown in full, page by page.
        let category: String?
        /// Only for editors.
        let desk: LearnDesk?
    }

    func library(req: Request) async throws -> Response {
        let q = (req.query[String.self, at: "q"] ?? "").trimmingCharacters(in: .whitespaces)
        let words = LearnIndex.queryWords(q)
        let snapshot = try await req.application.learnCaches.library.snapshot(on: req.db.sql)
        var results: [Card] = []
        var categories: [Category] = []
        var pager = Pager(req: req)
        var total = 0
        let chosen = req.query[String.self, at: "category"].flatMap { name in snapshot.articles.contains { $0.category == name } ? name : nil }
        if words.isEmpty {
            let names = LearnLibrary.categories + Set(snapshot.articles.map(\.category)).subtracting(LearnLibrary.categories).sorted()
            categories = names.compactMap { name in
                guard chosen == nil || chosen == name else { return nil }
                let all = snapshot.articles.filter { $0.category == name }
                // A category page pages; the library shows each category's first six.
                let shown =
                    chosen == nil
                    ? Array(all.prefix(6))
                    : pager.finish(Array(all.dropFirst(pager.offset).prefix(pager.fetchLimit)), at: .learn, query: [("category", name)])
                let cards = shown.map { Self.card($0, in: req.language, from: snapshot) }
                let link = SiteURL.learn.with([("category", name)])
                return cards.isEmpty ? nil : Category(name: name, label: LearnLibrary.label(name), articles: cards, total: all.count, link: link)
            }
        } else {
            let hits = snapshot.index.search(words)
            let shown = pager.finish(Array(hits.dropFirst(pager.offset).prefix(pager.fetchLimit)), at: .learn, query: [("q", q)])
            results = shown.map { hit in
                let article = snapshot.articles[hit.article]
                return Card(
                    slug: article.slug, title: article.title,
                    summary: Self.highlight(Self.snippet(article, words: words), words: words), minutes: article.minutes,
                    lang: req.language == .en ? nil : "en")
            }
            total = hits.count
        }
        let desk = EditorAccess.isEditor(req.currentUser) ? try await LearnDesk.load(on: req.db) : nil
        let page = LibraryPage(
            layout: req.layout(
                title: q.isEmpty ? (chosen.map { t("{category} – Learn", LearnLibrary.label($0)) } ?? t("Learn")) : t("{query} – Learn", q),
                section: .learn), q: q,
            searched: !words.isEmpty, total: total, results: results, pager: pager, categories: categories,
            category: words.isEmpty ? chosen : nil, desk: desk)
        return try await req.view.render("learn/library", page).encodeResponse(for: req)
    }

    /// The summary when it holds a search word, else the passage of the text where one first
    /// appears, cut at whole words.
    private static func snippet(_ article: LearnCatalog.Article, words: [String]) -> String {
        if words.contains(where: { !LearnIndex.wordStarts(of: $0, in: article.summary, limit: 1).isEmpty }) { return article.summary }
        let text = article.text
        guard let hit = words.compactMap({ LearnIndex.wordStarts(of: $0, in: text, limit: 1).first }).min(by: { $0.lowerBound < $1.lowerBound }) else {
            return article.summary
        }
        var start = text.index(hit.lowerBound, offsetBy: -80, limitedBy: text.startIndex) ?? text.startIndex
        var end = text.index(hit.upperBound, offsetBy: 120, limitedBy: text.endIndex) ?? text.endIndex
        // Whole words at both ends.
        if start > text.startIndex, let space = text[start..<hit.lowerBound].firstIndex(of: " ") { start = text.index(after: space) }
        if end < text.endIndex, let space = text[hit.upperBound..<end].lastIndex(of: " ") { end = space }
        return (start > text.startIndex ? "…" : "") + text[start..<end] + (end < text.endIndex ? "…" : "")
    }

    /// Escaped for HTML, built as a native string (Foundation's replacements can hand back a
    /// bridged one, whose UTF-8 view `highlight` would walk slowly).
    static func escape(_ text: String) -> String {
        var html = ""
        html.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": html += "&amp;"
            case "<": html += "&lt;"
            case ">": html += "&gt;"
            case "\"": html += "&quot;"
            default: html.unicodeScalars.append(scalar)
            }
        }
        return html
    }

    /// Escapes the text, then marks where words begin with a search word (the longer search
    /// word wins where two start at the same place).
    static func highlight(_ text: String, words: [String]) -> String {
        let html = escape(text)
        let marks = words.sorted { $0.count > $1.count }.flatMap { LearnIndex.wordStarts(of: $0, in: html) }
            .sorted { $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound > $1.upperBound }
        var result = ""
        var last = html.startIndex
        for mark in marks where mark.lowerBound >= last {
            result += html[last..<mark.lowerBound]
            result += "<mark>" + html[mark] + "</mark>"
            last = mark.upperBound
        }
        return result + html[last...]
    }

    struct ArticlePage: Encodable {
        let layout: Layout
        let slug: String
        let title: String
        let category: String
        let summary: String
        let audience: String
        let minutes: Int
        let byline: String
        let updated: String
        /// The same day for machines: "2026-11-21".
        let updatedOn: String
        let html: String
        let toc: [LearnRendering.Heading]
        let videos: [Video]
        let related: [Card]
        /// For editors: what readers see of this article, and where to change it.
        let editor: EditorBar?
        /// The language of the text when it is not the page's ("en" for an article not translated yet).
        let fallback: String?
    }

    struct EditorBar: Encodable {
        let state: String
        let isDraft: Bool
    }

    struct Video: Encodable {
        let title: String
        let url: String
        let host: String
    }

    func article(req: Request) async throws -> Response {
        guard let slug = req.parameters.get("slug") else { throw Abort(.notFound) }
        let snapshot = try await req.application.learnCaches.library.snapshot(on: req.db.sql)
        let isEditor = EditorAccess.isEditor(req.currentUser)
        if let article = snapshot.article(slug) {
            var bar: EditorBar?
            if isEditor {
                let pending = try await LearnDesk.load(on: req.db).items.contains { $0.slug == slug }
                bar = EditorBar(state: pending ? t("Published; there are changes not published yet.") : t("Published."), isDraft: false)
            }
            // Readers who are not signed in all get the same page: it is rendered once per version
            // of the library (a flash message, being personal, skips the cache).
            let shared = req.currentUser == nil && req.cookies[Flash.cookieName] == nil
            let language = req.language
            let key = snapshot.version + "|" + language.rawValue + "|" + slug
            if shared, let cached = req.application.learnCaches.pages.get(key) {
                return Self.htmlResponse(cached)
            }
            // Readers get their language's version, else the English with a note saying so.
            let fallback = snapshot.isTranslated(slug, into: language) ? nil : "en"
            let view = try await render(
                req, snapshot.article(article, in: language), related: snapshot.related(to: slug).map { Self.card($0, in: language, from: snapshot) },
                editor: bar, fallback: fallback)
            if shared { req.application.learnCaches.pages.set(key, view.data) }
            return Self.htmlResponse(view.data)
        }
        if let draft = try await LearnArticle.query(on: req.db).filter(\.$slug == slug).first() {
            // Unpublished: only editors see it, everyone else as if it did not exist.
            guard isEditor else { throw Abort(.notFound) }
            let article = LearnCatalog.Article(
                id: try draft.requireID(), slug: draft.slug, title: draft.title, category: draft.category,
                summary: draft.summary, audience: draft.audience, text: draft.text, html: draft.html,
                minutes: draft.readingMinutes, videos: draft.videoLinks, updated: draft.updatedAt ?? req.now,
                author: nil, reviser: nil, toc: LearnRendering.headings(in: draft.html))
            let view = try await render(
                req, article, related: [], editor: EditorBar(state: t("Not published: only editors can see this page."), isDraft: true),
                fallback: req.language == .en ? nil : "en")
            return Self.htmlResponse(view.data)
        }
        // An old address redirects only to what the reader may see: an unpublished article's new
        // address is not given away.
        if let old = try await LearnSlug.query(on: req.db).filter(\.$slug == slug).with(\.$article).first(),
            old.article.published || isEditor
        {
            return req.redirect(to: SiteURL.article(slug: old.article.slug).path, redirectType: .permanent)
        }
        throw Abort(.notFound)
    }

    private static func htmlResponse(_ body: ByteBuffer) -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .html
        return Response(status: .ok, headers: headers, body: .init(buffer: body))
    }

    /// `fallback` is the language the article is shown in when it is not the reader's.
    private func render(
        _ req: Request, _ article: LearnCatalog.Article, related: [Card], editor: EditorBar?, fallback: String?
    ) async throws -> View {
        let day = WallClock(article.updated, zone: TimeZone.utc)
        // Its own sentence, not "by" + a name: Portuguese joins them ("pelos editores").
        var byline = article.author.map { t("by {author}", $0) } ?? t("by the Fieldhouse editors")
        if let reviser = article.reviser, reviser != article.author {
            byline = article.author.map { t("by {author}, revised by {reviser}", $0, reviser) } ?? t("by the Fieldhouse editors, revised by {reviser}", reviser)
        }
        let page = ArticlePage(
            layout: req.layout(title: article.title, section: .learn), slug: article.slug, title: article.title, category: LearnLibrary.label(article.category),
            summary: article.summary, audience: LearnLibrary.audienceLabel(article.audience), minutes: article.minutes, byline: byline,
            updated: CalendarDate(year: day.year, month: day.month, day: day.day).map { Format.day($0) } ?? "",
            updatedOn: Format.isoDay(day), html: article.html,
            toc: article.toc,
            videos: article.videos.map { Video(title: $0.title, url: $0.url, host: URL(string: $0.url)?.host ?? "") },
            related: related,
            editor: editor, fallback: fallback)
        return try await req.view.render("learn/article", page)
    }
}
