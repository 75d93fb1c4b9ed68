import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Writing Learn articles in the browser (editors only): `/learn/new` and `/learn/{slug}/edit`
/// with a server-rendered preview, drafts, publishing and unpublishing, and the revision history
/// with what changed between two revisions. Every save is a revision; readers see the published
/// one until another is published.
struct LearnEditorController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(LearnPath.newArticle, use: newPage)
        routes.post(LearnPath.newArticle, use: create)
        routes.post(LearnPath.preview, use: preview)
        routes.get(LearnPath.editArticle, use: editPage)
        routes.post(LearnPath.editArticle, use: update)
        routes.post(LearnPath.unpublish, use: unpublish)
        routes.get(LearnPath.articleRevisions, use: revisions)
        routes.get(LearnPath.compare, use: compare)
    }

    struct EditPage: Encodable {
        let layout: Layout
        let isNew: Bool
        let action: String
        let slug: String?
        let state: String?
        let isPublished: Bool
        let form: LearnArticleForm
        let categories: [SelectOption]
        let errors: FieldErrors
        let preview: String?
        /// Set when the form was filled from an older revision.
        let restoring: String?
        /// The other languages the article can be written in (code and name).
        let languages: [SelectOption]
    }

    /// A category in the form's list: the English name is what is sent and stored.
    // MARK: Pages

    func newPage(req: Request) async throws -> Response {
        _ = try EditorAccess.load(req).editor
        return try await render(
            req, article: nil, form: LearnArticleForm(category: LearnLibrary.categories[0], audience: LearnLibrary.audienceLabel("everyone")))
    }

    func editPage(req: Request) async throws -> Response {
        _ = try EditorAccess.load(req).editor
        let article = try await Self.find(req)
        let latest = try await Self.latestRevision(of: article, on: req.db)
        var source = latest
        var restoring: String?
        // "Restore": start from an older revision; saving makes it the newest.
        if let wanted = req.query[UUID.self, at: "revision"] {
            guard
                let older = try await LearnRevision.query(on: req.db).filter(\.$id == wanted)
                    .filter(\.$article.$id == article.requireID()).first()
            else { throw Abort(.notFound) }
            source = older
            restoring =
                t(
                    "This form holds the revision of {time}. Saving makes it the newest revision.",
                    Format(viewer: req.currentUser).when(older.createdAt ?? req.now))
        }
        let document = source?.document(slug: article.slug) ?? Self.document(of: article)
        return try await render(
            req, article: article, form: LearnArticleForm(document, base: latest?.id),
            preview: LearnRendering.html(document.body), restoring: restoring)
    }

    /// The form's Markdown as the article page would show it, for the live preview.
    func preview(req: Request) async throws -> Response {
        _ = try EditorAccess.load(req).editor
        let form = try req.content.decode(LearnArticleForm.self)
        let body = form.body ?? ""
        guard body.count <= LearnArticleForm.maxBody else {
            throw Abort(.payloadTooLarge, reason: t("The article is longer than {max} characters.", LearnArticleForm.maxBody))
        }
        let response = Response(status: .ok, body: .init(string: LearnRendering.html(body)))
        response.headers.contentType = .html
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    // MARK: Saving

    func create(req: Request) async throws -> Response {
        try await save(req, article: nil)
    }

    func update(req: Request) async throws -> Response {
        _ = try EditorAccess.load(req).editor
        return try await save(req, article: try await Self.find(req))
    }

    private func save(_ req: Request, article existing: LearnArticle?) async throws -> Response {
        let editor = try EditorAccess.load(req).editor
        var form = try req.content.decode(LearnArticleForm.self)
        var (document, errors) = form.validated(currentSlug: existing?.slug)
        if form.action == "preview" {
            return try await render(req, article: existing, form: form, errors: errors, preview: LearnRendering.html(form.body ?? ""))
        }
        let latest = try await existing.asyncFlatMap { try await Self.latestRevision(of: $0, on: req.db) }
        if let latest, form.base != latest.id?.uuidString {
            let who = try await latest.authorID.asyncFlatMap { try await User.find($0, on: req.db) }?.displayName ?? t("Someone")
            errors["base"] = t(
                "{name} saved this article at {time}, after you opened it. Your text is kept below; compare it with theirs under Revisions, then save again to make yours the newest.",
                who, Format(viewer: req.currentUser).when(latest.createdAt ?? req.now))
            form.base = latest.id?.uuidString
        }
        if let slug = document?.slug, errors.isEmpty, try await Self.slugTaken(slug, by: existing, on: req.db) {
            errors["slug"] = t("Another article uses (or used) “{slug}”. Choose another.", slug)
        }
        guard errors.isEmpty, let document else {
            return try await render(req, article: existing, form: form, errors: errors)
        }
        let publish = form.action == "publish"
        let article = existing ?? LearnArticle()
        try await Self.store(document, in: article, existing: existing, latest: latest, editor: editor, publish: publish, req: req)
        req.application.learnCaches.library.changed()
        if publish {
            req.flash(.success, t("Published. Everyone can read it now."))
            return req.redirect(to: .article(slug: article.slug))
        }
        req.flash(
            .success,
            article.published
                ? t("Draft saved. Readers still see the published version until you publish.")
                : t("Draft saved. Only editors can see it until you publish."))
        return req.redirect(to: .editArticle(slug: article.slug))
    }

    /// Writes the article, a revision when the text changed, and what is published, in one transaction.
    private static func store(
        _ document: LearnDocument, in article: LearnArticle, existing: LearnArticle?, latest: LearnRevision?, editor: User, publish: Bool,
        req: Request
    ) async throws {
        try await req.db.inTransaction { db in
            if existing == nil {
                article.apply(document)
                article.published = false
                try await article.create(on: db)
            }
            let id = try article.requireID()
            if article.slug != document.slug {
                // The old address keeps working; taking back an old slug of this article clears it.
                try await LearnSlug.query(on: db).filter(\.$slug == document.slug).delete()
                try await LearnSlug(slug: article.slug, article: id).create(on: db)
                article.slug = document.slug
            }
            // A save that changes nothing (say, publishing what was saved) adds no revision.
            var revision = latest
            if revision == nil || revision!.document(slug: document.slug) != document || existing == nil {
                revision = LearnRevision(article: id, document: document, author: try editor.requireID())
                try await revision!.create(on: db)
            }
            if publish {
                article.apply(document)
                article.published = true
                article.publishedRevisionID = try revision!.requireID()
                if revision!.publishedAt == nil {
                    revision!.publishedAt = req.now
                    try await revision!.save(on: db)
                }
            } else if !article.published {
                // Nothing is public: the row follows the draft so editors can read it as a page.
                article.apply(document)
            }
            // Touch the row whatever changed, so readers' caches notice.
            article.updatedAt = req.now
            try await article.save(on: db)
        }
    }

    func unpublish(req: Request) async throws -> Response {
        _ = try EditorAccess.load(req).editor
        let article = try await Self.find(req)
        if article.published {
            article.published = false
            // Unpublished, the row follows the newest revision again.
            if let latest = try await Self.latestRevision(of: article, on: req.db) {
                article.apply(latest.document(slug: article.slug))
            }
            article.updatedAt = req.now
            try await article.save(on: req.db)
            req.application.learnCaches.library.changed()
        }
        req.flash(.success, t("Unpublished. Only editors can see it now; its address answers 404 to everyone else."))
        return req.redirect(to: .editArticle(slug: article.slug))
    }

    // MARK: Revisions

    struct RevisionItem: Encodable {
        let id: String
        let when: String
        let author: String
        let title: String
        let words: Int
        let published: Bool
        let live: Bool
        let newest: Bool
        let previous: String?
    }

    struct RevisionsPage: Encodable {
        let layout: Layout
        let slug: String
        let title: String
        let revisions: [RevisionItem]
        let pager: Pager
        let canCompare: Bool
    }

    func revisions(req: Request) async throws -> Response {
        _ = try EditorAccess.load(req).editor
        let article = try await Self.find(req)
        var pager = Pager(req: req, perPage: 30)
        // One more than a page so the last row can still link to the revision before it.
        let rows = try await LearnRevision.query(on: req.db).filter(\.$article.$id == article.requireID())
            .sort(\.$createdAt, .descending).range(pager.offset..<(pager.offset + pager.perPage + 2)).all()
        let authors = try await Self.names(rows.compactMap(\.authorID), on: req.db)
        let shown = pager.finish(rows, at: .articleRevisions(slug: article.slug), query: [])
        let items = shown.enumerated().map { index, revision in
            RevisionItem(
                id: revision.id?.uuidString ?? "", when: Format(viewer: req.currentUser).when(revision.createdAt ?? req.now),
                author: revision.authorID.flatMap { authors[$0] } ?? t("Fieldhouse (shipped file)"),
                title: revision.title, words: revision.body.split { $0.isWhitespace }.count,
                published: revision.publishedAt != nil, live: article.published && revision.id == article.publishedRevisionID,
                newest: pager.page == 1 && index == 0,
                previous: index + 1 < rows.count ? rows[index + 1].id?.uuidString : nil)
        }
        let page = RevisionsPage(
            layout: req.layout(title: t("Revisions of {title}", article.title), section: .learn), slug: article.slug,
            title: article.title, revisions: items, pager: pager, canCompare: rows.count > 1)
        return try await req.view.render("learn/revisions", page).encodeResponse(for: req)
    }

    struct DiffLine: Encodable {
        let kind: String
        let sign: String
        let old: Int?
        let new: Int?
        let text: String
    }

    struct ComparePage: Encodable {
        let layout: Layout
        let slug: String
        let title: String
        let from: String
        let to: String
        let fromID: String
        let hunks: [[DiffLine]]
        let added: Int
        let removed: Int
    }

    private static let signs: [LineDiff.Kind: String] = [.added: "+", .removed: "−", .same: " "]

    func compare(req: Request) async throws -> Response {
        _ = try EditorAccess.load(req).editor
        let article = try await Self.find(req)
        guard let fromID = req.query[UUID.self, at: "from"], let toID = req.query[UUID.self, at: "to"] else {
            throw Abort(.badRequest, reason: t("Choose two revisions to compare."))
        }
        let pair = try await LearnRevision.query(on: req.db).filter(\.$article.$id == article.requireID()).filter(\.$id ~~ [fromID, toID]).all()
        guard let from = pair.first(where: { $0.id == fromID }), let to = pair.first(where: { $0.id == toID }) else { throw Abort(.notFound) }
        let hunks = LineDiff.hunks(from: from.document(slug: article.slug).fileText, to: to.document(slug: article.slug).fileText)
        let lines = hunks.map { hunk in
            hunk.lines.map { line in
                DiffLine(kind: line.kind.rawValue, sign: Self.signs[line.kind] ?? " ", old: line.old, new: line.new, text: line.text)
            }
        }
        let authors = try await Self.names([from.authorID, to.authorID].compactMap { $0 }, on: req.db)
        func label(_ revision: LearnRevision) -> String {
            t(
                "{time} by {author}", Format(viewer: req.currentUser).when(revision.createdAt ?? req.now),
                revision.authorID.flatMap { authors[$0] } ?? t("Fieldhouse (shipped file)"))
        }
        let page = ComparePage(
            layout: req.layout(title: t("Changes to {title}", article.title), section: .learn), slug: article.slug, title: article.title,
            from: label(from), to: label(to), fromID: fromID.uuidString, hunks: lines,
            added: hunks.reduce(0) { $0 + $1.lines.count(where: { $0.kind == .added }) },
            removed: hunks.reduce(0) { $0 + $1.lines.count(where: { $0.kind == .removed }) })
        return try await req.view.render("learn/compare", page).encodeResponse(for: req)
    }

    // MARK: Helpers

    private func render(
        _ req: Request, article: LearnArticle?, form: LearnArticleForm, errors: FieldErrors = [:],
        preview: String? = nil, restoring: String? = nil
    ) async throws -> Response {
        var state: String?
        if let article {
            let pending = try await LearnDesk.load(on: req.db).items.first { $0.slug == article.slug }?.state
            state = pending ?? (article.published ? t("Published") : t("Draft"))
        }
        let page = EditPage(
            layout: req.layout(title: article.map { t("Edit {title}", $0.title) } ?? t("New article"), section: .learn),
            isNew: article == nil, action: (article.map { .editArticle(slug: $0.slug) } ?? SiteURL.newArticle).path,
            slug: article?.slug, state: state, isPublished: article?.published ?? false, form: form,
            categories: LearnLibrary.categories.map { SelectOption(value: $0, label: LearnLibrary.label($0)) }, errors: errors, preview: preview,
            restoring: restoring, languages: Language.allCases.filter { $0 != .en }.map { SelectOption(value: $0.rawValue, label: $0.name) })
        return try await req.view.render("learn/edit", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    /// The article by its current slug (editor pages do not follow old slugs: they act on one article).
    private static func find(_ req: Request) async throws -> LearnArticle {
        guard let slug = req.parameters.get("slug"),
            let article = try await LearnArticle.query(on: req.db).filter(\.$slug == slug).first()
        else {
            throw Abort(.notFound)
        }
        return article
    }

    static func latestRevision(of article: LearnArticle, on db: any Database) async throws -> LearnRevision? {
        try await LearnRevision.query(on: db).filter(\.$article.$id == article.requireID()).sort(\.$createdAt, .descending).first()
    }

    private static func document(of article: LearnArticle) -> LearnDocument {
        LearnDocument(
            title: article.title, slug: article.slug, category: article.category, summary: article.summary,
            audience: article.audience, videos: article.videoLinks, body: article.body)
    }

    /// Whether another article has this slug now or had it before.
    private static func slugTaken(_ slug: String, by article: LearnArticle?, on db: any Database) async throws -> Bool {
        let current = try await LearnArticle.query(on: db).filter(\.$slug == slug).first()
        if let current, current.id != article?.id { return true }
        let old = try await LearnSlug.query(on: db).filter(\.$slug == slug).first()
        if let old, old.$article.id != article?.id { return true }
        return false
    }

    private static func names(_ ids: [UUID], on db: any Database) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        let users = try await User.query(on: db).filter(\.$id ~~ Array(Set(ids))).all()
        return Dictionary(users.compactMap { user in user.id.map { ($0, user.displayName) } }, uniquingKeysWith: { first, _ in first })
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncFlatMap<T>(_ transform: (Wrapped) async throws -> T?) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
