import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Workouts in the feed: the viewer's own, and those of people they follow (the follow accepted)
/// that those people share with followers or everyone. Private workouts never appear, nor does a
/// workout still being recorded; the rules are `WorkoutAccess.canView`'s, short of a coach's view.
extension Workouts {
    /// The workout id in a cursor at a workout (ties at one start are ordered by id, as the keys
    /// are); past every id otherwise.
    private static func cursorID(_ cursor: FeedCursor?) -> UUID {
        guard let cursor, cursor.key.hasPrefix("workout:"), let id = UUID(uuidString: String(cursor.key.dropFirst("workout:".count))) else {
            return UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
        }
        return id
    }

    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let user_id: UUID
            let sport: String
            let name: String
            let start_ms: Int64
            let duration_s: Double
            let distance_m: Double?
            let username: String
            let display_name: String
        }
        let rows = try await (db as! any SQLDatabase).raw(
            """
            SELECT w.id, w.user_id, w.sport, w.name, w.start_ms, w.duration_s, w.distance_m, u.username, u.display_name
            FROM workouts w JOIN users u ON u.id = w.user_id
            WHERE w.end_ms IS NOT NULL AND (w.start_ms < \(bind: before?.at ?? Int64.max)
              OR (w.start_ms = \(bind: before?.at ?? Int64.max) AND w.id < \(bind: Self.cursorID(before))))
              AND (w.user_id = \(bind: viewer.id)
                OR (w.visibility IN ('public', 'followers') AND w.user_id IN (
                  SELECT followee_id FROM follows WHERE follower_id = \(bind: viewer.id) AND status = 'accepted')))
            ORDER BY w.start_ms DESC, w.id DESC
            LIMIT \(literal: max(1, limit))
            """
        ).all(decoding: Row.self)
        return rows.map { row in
            let sport = WorkoutSport(rawValue: row.sport) ?? .other
            var detail = [sport.label, Format.duration(row.duration_s)]
            if let metres = row.distance_m, metres > 0 { detail.insert(viewer.format.distance(metres), at: 1) }
            return FeedItem(
                at: row.start_ms, key: "workout:\(SiteURL.id(row.id))", kind: "workout", actorName: row.display_name,
                actorURL: SiteURL.person(username: row.username).path, text: "logged a workout", title: row.name, url: SiteURL.workout(row.id).path,
                detail: detail.joined(separator: " · "), isViewers: row.user_id == viewer.id)
        }
    }
}
