import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Plans in the feed, at the moment they were posted, to the people `PlanAccess` lets see them,
/// with "I'm in" for those who can still say so.
extension Community {
    static func planFeedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let created_at: Date
            let text: String
            let user_id: UUID
            let sport: String
            let starts_at: Date
            let duration_minutes: Int
            let time_zone: String
            let status: String
            let capacity: Int?
            let joined_count: Int
            let mine: String?
        }
        // The cursor's moment plus a millisecond: stored dates round, so `Feed` cuts exactly.
        let newest = before.map { Date(timeIntervalSince1970: Double($0.maxAt + 1) / 1000) } ?? .distantFuture
        let sql = db.sql
        let rows = try await sql.raw(
            """
            SELECT p.id, p.created_at, p.text, p.user_id, g.sport, g.starts_at, g.duration_minutes, g.time_zone, g.status, g.capacity,
                   g.joined_count, mine.status AS mine
            FROM plans p JOIN games g ON g.id = p.game_id
            LEFT JOIN game_players mine ON mine.game_id = p.game_id AND mine.user_id = \(bind: viewer.id)
            WHERE p.created_at IS NOT NULL AND p.created_at <= \(bind: newest) AND \(PlanAccess.visible(to: viewer.id))
            ORDER BY p.created_at DESC, p.id DESC
            LIMIT \(literal: max(1, limit) + 1)
            """
        ).all(decoding: Row.self)
        guard !rows.isEmpty else { return [] }
        let people = try await sql.select().columns("id", "username", "display_name", "visibility", "birth_date").from(User.schema)
            .where("id", .in, Array(Set(rows.map(\.user_id)))).all().map(User.forPolicy)
        let byID = Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let relations = try await Relations.load(viewerID: viewer.id, people: people.compactMap(\.id), today: viewer.today, on: db)
        return rows.compactMap { row in
            guard let poster = byID[row.user_id] else { return nil }
            let isViewers = row.user_id == viewer.id
            let sport = Sport(rawValue: row.sport)?.label ?? row.sport
            let ends = row.starts_at.addingTimeInterval(Double(row.duration_minutes) * 60)
            var detail = "\(sport) · \(GameTime.shortDay(row.starts_at, zone: row.time_zone)), \(GameTime.clock(row.starts_at, zone: row.time_zone))"
            detail += " · " + (row.status == Game.Status.cancelled.rawValue ? t("called off") : tn("{count} in", "{count} in", row.joined_count))
            let known = PersonAccess.canSeeExists(poster, relations.relation(to: poster))
            var item = FeedItem(
                at: Feed.milliseconds(row.created_at), key: "plan:\(SiteURL.id(row.id))", kind: "plan", actorName: known ? poster.displayName : t("Someone"),
                actorURL: known ? SiteURL.person(username: poster.username).path : nil,
                text: t("plans"), title: row.text, url: SiteURL.plan(row.id).path, detail: detail, isViewers: isViewers)
            if !isViewers, row.mine == nil, row.status == Game.Status.scheduled.rawValue, ends > viewer.now {
                item.action = SiteURL.planJoin(row.id).path
                item.actionLabel = row.capacity.map { row.joined_count >= $0 } ?? false ? t("Join the waitlist") : t("I'm in")
            }
            return item
        }
    }
}
