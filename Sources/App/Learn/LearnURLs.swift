import Foundation

/// Every path Learn serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum LearnPath: String, RoutePattern {
    case learn = "/learn"
    case newArticle = "/learn/new"
    case preview = "/learn/preview"
    case article = "/learn/:slug"
    case editArticle = "/learn/:slug/edit"
    case unpublish = "/learn/:slug/unpublish"
    case articleRevisions = "/learn/:slug/revisions"
    case compare = "/learn/:slug/compare"
    case translateArticle = "/learn/:slug/translation/:language"
}

extension SiteURL {
    static let learn = SiteURL(LearnPath.learn)
    static let newArticle = SiteURL(LearnPath.newArticle)
    static func article(slug: String) -> SiteURL { SiteURL(LearnPath.article, slug) }
    static func editArticle(slug: String) -> SiteURL { SiteURL(LearnPath.editArticle, slug) }
    static func articleRevisions(slug: String) -> SiteURL { SiteURL(LearnPath.articleRevisions, slug) }
}
