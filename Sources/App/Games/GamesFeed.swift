import Fluent
import Foundation
import SQLKit

/// Results of the viewer's teams' games, in the feed: the team's members see them.
extension Games {
    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let starts_at: Date
            let opponent_name: String?
            let home_score: Int
            let away_score: Int
            let slug: String
            let name: String
        }
        // A result stands at the game's start, the order the query reads them in (the `Feed` cuts
        // exactly at the cursor).
        let newest = before.map { Date(timeIntervalSince1970: Double($0.maxAt + 1) / 1000) } ?? .distantFuture
        let rows = try await db.sql.raw(
            """
            SELECT g.id, g.starts_at, g.opponent_name, g.home_score, g.away_score, t.slug, t.name
            FROM games g JOIN teams t ON t.id = g.team_id
            JOIN memberships mine ON mine.team_id = g.team_id AND mine.user_id = \(bind: viewer.id)
            WHERE g.status = 'scheduled' AND g.home_score IS NOT NULL AND g.away_score IS NOT NULL AND g.starts_at <= \(bind: newest)
            ORDER BY g.starts_at DESC, g.id DESC
            LIMIT \(literal: max(1, limit) + 1)
            """
        ).all(decoding: Row.self)
        return rows.map { row in
            FeedItem(
                at: Feed.milliseconds(row.starts_at), key: "result:\(SiteURL.id(row.id))", kind: "result", actorName: row.name,
                actorURL: SiteURL.team(slug: row.slug).path, text: t("played"),
                title: "\(row.name) \(row.home_score)–\(row.away_score) \(row.opponent_name ?? "")".trimmingCharacters(in: .whitespaces),
                url: SiteURL.game(row.id).path, detail: nil)
        }
    }
}
