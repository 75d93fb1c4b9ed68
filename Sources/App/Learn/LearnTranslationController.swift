import FieldhouseKit
import Fluent
import Vapor

extension SiteURL {
    /// The editor's form for an article's version in another language.
    static func translateArticle(slug: String, language: Language) -> SiteURL { SiteURL(LearnPath.translateArticle, slug, language.rawValue) }
}

/// An editor writes an article's version in another language: its title, summary, audience and
/// text (the address, category and videos are the English article's). Saving shows it at once to
/// readers of that language; an import of the shipped files leaves it alone from then on.
struct LearnTranslationController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(LearnPath.translateArticle, use: page)
        routes.post(LearnPath.translateArticle, use: save)
    }

    struct Page: Encodable {
        let layout: Layout
        let slug: String
        let language: String
        let languageName: String
        let englishTitle: String
        let englishSummary: String
        let isNew: Bool
        let form: LearnArticleForm
        let errors: FieldErrors
    }

    func page(req: Request) async throws -> Response {
        let (article, language) = try await Self.find(req)
        let existing = try await Self.translation(of: article, in: language, on: req.db)
        let form = LearnArticleForm(
            title: existing?.title, summary: existing?.summary, audience: existing.map { LearnLibrary.audienceLabel($0.audience) },
            body: existing?.body)
        return try await render(req, article: article, language: language, form: form, isNew: existing == nil)
    }

    func save(req: Request) async throws -> Response {
        let editor = try EditorAccess.load(req).editor
        let (article, language) = try await Self.find(req)
        let typed = try req.content.decode(LearnArticleForm.self)
        // The same checks as the English article, with its address, category and videos.
        var form = typed
        form.slug = article.slug
        form.category = article.category
        form.videos = article.videoLinks.map(\.line).joined(separator: "\n")
        let (document, errors) = form.validated(currentSlug: article.slug)
        let existing = try await Self.translation(of: article, in: language, on: req.db)
        guard let document, errors.isEmpty else {
            return try await render(req, article: article, language: language, form: typed, isNew: existing == nil, errors: errors)
        }
        let translation = try existing ?? LearnTranslation(article: article.requireID(), language: language)
        translation.apply(document)
        translation.authorID = try editor.requireID()
        try await req.db.inTransaction { db in
            try await translation.save(on: db)
            // The library's version follows its articles' saves: touch the article so every process reloads.
            article.updatedAt = req.now
            try await article.save(on: db)
        }
        req.application.learnCaches.library.changed()
        req.flash(.success, t("Saved. Readers who read {language} see it now.", language.name))
        return req.redirect(to: .translateArticle(slug: article.slug, language: language))
    }

    private func render(
        _ req: Request, article: LearnArticle, language: Language, form: LearnArticleForm, isNew: Bool, errors: FieldErrors = [:]
    ) async throws -> Response {
        let page = Page(
            layout: req.layout(title: t("{title} in {language}", article.title, language.name), section: .learn), slug: article.slug,
            language: language.rawValue, languageName: language.name, englishTitle: article.title, englishSummary: article.summary,
            isNew: isNew, form: form, errors: errors)
        return try await req.view.render("learn/translation", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    /// The article (by its current slug) and a language other than English, for an editor.
    private static func find(_ req: Request) async throws -> (LearnArticle, Language) {
        _ = try EditorAccess.load(req).editor
        guard let slug = req.parameters.get("slug"), let language = req.parameters.get("language").flatMap(Language.init(rawValue:)),
            language != .en, let article = try await LearnArticle.query(on: req.db).filter(\.$slug == slug).first()
        else { throw Abort(.notFound) }
        return (article, language)
    }

    private static func translation(of article: LearnArticle, in language: Language, on db: any Database) async throws -> LearnTranslation? {
        try await LearnTranslation.query(on: db).filter(\.$article.$id == article.requireID()).filter(\.$language == language.rawValue).first()
    }
}
