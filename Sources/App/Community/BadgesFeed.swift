import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Badges in the feed: the viewer's own when earned, and the shared ones (see `BadgeAwards`) of
/// people they follow, the follow accepted, when they were first shown.
extension Community {
    static func badgeFeedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let user_id: UUID
            let kind: String
            let earned_at: Date
            let username: String
            let display_name: String
        }
        let newest = before.map { Date(timeIntervalSince1970: Double($0.maxAt + 1) / 1000) } ?? .distantFuture
        let rows = try await db.sql.raw(
            """
            SELECT b.id, b.user_id, b.kind, b.at AS earned_at, u.username, u.display_name
            FROM (SELECT id, user_id, kind, CASE WHEN user_id = \(bind: viewer.id) THEN earned_at ELSE shown_at END AS at FROM badges
                  WHERE user_id = \(bind: viewer.id) OR (shared = \(bind: true) AND user_id IN (
                    SELECT followee_id FROM follows WHERE follower_id = \(bind: viewer.id) AND status = 'accepted'))) b
            JOIN users u ON u.id = b.user_id
            WHERE b.at IS NOT NULL AND b.at <= \(bind: newest)
            ORDER BY b.at DESC, b.id DESC
            LIMIT \(literal: max(1, limit) + 1)
            """
        ).all(decoding: Row.self)
        return rows.compactMap { row in
            guard let kind = BadgeKind(rawValue: row.kind) else { return nil }
            let isViewers = row.user_id == viewer.id
            var item = FeedItem(
                at: Feed.milliseconds(row.earned_at), key: "badge:\(SiteURL.id(row.id))", kind: "badge", actorName: row.display_name,
                actorURL: SiteURL.person(username: row.username).path, text: t("earned a badge:"), title: "\(kind.symbol) \(kind.title)",
                url: isViewers ? SiteURL.badges.path : SiteURL.person(username: row.username).path, detail: kind.rule, isViewers: isViewers)
            if !isViewers {
                item.giftURL = SiteURL.newGift(for: "badge:\(SiteURL.id(row.id))")
            }
            return item
        }
    }
}
