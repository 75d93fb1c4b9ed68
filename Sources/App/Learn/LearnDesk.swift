import Foundation
import Fluent
import SQLKit

/// An editor's view of articles that readers do not see yet: drafts, unpublished articles and
/// published ones with changes not yet published.
struct LearnDesk: Encodable {
    struct Item: Encodable {
        let slug: String
        let title: String
        let state: String
    }

    let items: [Item]
    let hasItems: Bool

    private struct Row: Decodable {
        let slug: String
        let title: String
        let published: Bool
        let published_revision_id: UUID?
        let latest: UUID?
    }

    static func load(on db: any Database) async throws -> LearnDesk {
        let rows = try await db.sql.raw(
            """
            SELECT a.slug, a.title, a.published, a.published_revision_id,
                   (SELECT r.id FROM learn_revisions r WHERE r.article_id = a.id ORDER BY r.created_at DESC LIMIT 1) AS latest
            FROM learn_articles a ORDER BY a.updated_at DESC
            """
        ).all(decoding: Row.self)
        let items = rows.compactMap { row -> Item? in
            if !row.published {
                return Item(slug: row.slug, title: row.title, state: row.published_revision_id == nil ? t("Draft, never published") : t("Unpublished"))
            }
            return row.latest != row.published_revision_id ? Item(slug: row.slug, title: row.title, state: t("Changes not published yet")) : nil
        }
        return LearnDesk(items: items, hasItems: !items.isEmpty)
    }
}
