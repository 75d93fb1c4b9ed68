import Foundation

extension SiteURL {
    static let learn = SiteURL("learn")
    static let newArticle = SiteURL("learn", "new")
    static func article(slug: String) -> SiteURL { SiteURL("learn", slug) }
    static func editArticle(slug: String) -> SiteURL { SiteURL("learn", slug, "edit") }
    static func articleRevisions(slug: String) -> SiteURL { SiteURL("learn", slug, "revisions") }
}
