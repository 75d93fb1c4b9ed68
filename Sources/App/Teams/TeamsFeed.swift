import Fluent
import Foundation
import SQLKit

/// New members of the viewer's teams, in the feed: only teammates see them, as on the roster.
extension Teams {
    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let created_at: Date
            let username: String
            let display_name: String
            let slug: String
            let name: String
        }
        // The cursor's moment plus a millisecond: stored dates round, so `Feed` cuts exactly.
        let newest = before.map { Date(timeIntervalSince1970: Double($0.maxAt + 1) / 1000) } ?? .distantFuture
        let rows = try await (db as! any SQLDatabase).raw(
            """
            SELECT m.id, m.created_at, u.username, u.display_name, t.slug, t.name
            FROM memberships m
            JOIN memberships mine ON mine.team_id = m.team_id AND mine.user_id = \(bind: viewer.id)
            JOIN users u ON u.id = m.user_id JOIN teams t ON t.id = m.team_id
            WHERE m.user_id <> \(bind: viewer.id) AND m.created_at IS NOT NULL AND m.created_at <= \(bind: newest)
            ORDER BY m.created_at DESC
            LIMIT \(literal: max(1, limit) + 1)
            """
        ).all(decoding: Row.self)
        return rows.map { row in
            FeedItem(
                at: Feed.milliseconds(row.created_at), key: "member:\(SiteURL.id(row.id))", kind: "member", actorName: row.display_name,
                actorURL: SiteURL.person(username: row.username).path, text: "joined", title: row.name, url: SiteURL.team(slug: row.slug).path,
                detail: nil)
        }
    }
}
