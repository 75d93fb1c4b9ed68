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

    /// The windows the feed query tries, in days before the cursor; nil is everything.
    static let feedWindows: [Int?] = [3, 21, 180, nil]

    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        try await workoutFeedItems(for: viewer, before: before, limit: limit, on: db)
            + routeFeedItems(for: viewer, before: before, limit: limit, on: db)
    }

    static func workoutFeedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let user_id: UUID
            let sport: String
            let name: String
            let start_ms: Int64
            let duration_s: Double
            let distance_m: Double?
            /// When the part others see begins (`Workout.share`): the feed's order and its cursor, so
            /// neither tells a follower the real start of a run from inside a privacy zone.
            let shared_start_ms: Int64
            let shared_duration_s: Double?
            let shared_distance_m: Double?
            let username: String
            let display_name: String
        }
        // Newest first from a window before the cursor, widened until it holds a page: each
        // followee's workouts are read from `workouts_feed_idx` within the window and only those
        // are sorted, so a feed over years of 300 friends' workouts reads a few hundred index
        // entries, not all of them, and the table only for the page shown. The people are one
        // list (the viewer and their followees) rather than "the viewer OR a followee": with the
        // OR, SQLite searched each person's workouts by `workouts_user_start` without the window
        // and read all 200,000 rows of the bench feed (0.6 s a page).
        let newest = before?.at ?? Int64.max
        // Windows reach back from the cursor, or on the first page from a day after now (starts
        // are refused beyond a few minutes ahead, so nothing newer is left out; the first page has
        // no upper bound at all).
        let top = min(newest, Feed.milliseconds(viewer.now) + 86_400_000)
        var rows: [Row] = []
        for days in Self.feedWindows {
            let oldest = days.map { top - Int64($0) * 86_400_000 } ?? Int64.min
            rows = try await db.sql.raw(
                """
                SELECT w.id, w.user_id, w.sport, w.name, w.start_ms, w.duration_s, w.distance_m, COALESCE(w.shared_start_ms, w.start_ms) AS shared_start_ms,
                  w.shared_duration_s,
                  w.shared_distance_m, u.username, u.display_name
                FROM workouts w JOIN users u ON u.id = w.user_id
                WHERE w.id IN (
                  SELECT id FROM workouts
                  WHERE end_ms IS NOT NULL AND shared_start_ms >= \(bind: oldest) AND (shared_start_ms < \(bind: newest)
                    OR (shared_start_ms = \(bind: newest) AND id < \(bind: Self.cursorID(before))))
                    AND user_id IN (SELECT \(bind: viewer.id) UNION ALL
                      SELECT followee_id FROM follows WHERE follower_id = \(bind: viewer.id) AND status = 'accepted')
                    AND (user_id = \(bind: viewer.id) OR visibility IN ('public', 'followers'))
                  ORDER BY shared_start_ms DESC, id DESC
                  LIMIT \(literal: max(1, limit)))
                ORDER BY w.shared_start_ms DESC, w.id DESC
                """
            ).all(decoding: Row.self)
            if rows.count >= limit { break }
        }
        return rows.map { row in
            let sport = WorkoutSport(rawValue: row.sport) ?? .other
            // Others see what the owner's privacy zones leave of it (`Workout.share`).
            let mine = row.user_id == viewer.id
            let seconds = mine ? row.duration_s : row.shared_duration_s ?? row.duration_s
            let distance = mine ? row.distance_m : row.shared_distance_m ?? row.distance_m
            var detail = [sport.label, Format.duration(seconds)]
            if let metres = distance, metres > 0 { detail.insert(viewer.format.distance(metres), at: 1) }
            var item = FeedItem(
                at: row.shared_start_ms, key: "workout:\(SiteURL.id(row.id))", kind: "workout", actorName: row.display_name,
                actorURL: SiteURL.person(username: row.username).path, text: t("logged a workout"), title: row.name, url: SiteURL.workout(row.id).path,
                detail: detail.joined(separator: " · "), isViewers: mine)
            item.shownAt = mine ? row.start_ms : nil
            return item
        }
    }
}

/// Routes in the feed, at the moment they were first shared: the viewer's own, and those of people
/// they follow that `RouteAccess` lets them open (public, or friends' when both follow).
extension Workouts {
    static func routeFeedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let user_id: UUID
            let name: String
            let shared_at: Date
            let username: String
            let display_name: String
        }
        // The cursor's moment plus a millisecond: stored dates round, so `Feed` cuts exactly.
        let newest = before.map { Date(timeIntervalSince1970: Double($0.maxAt + 1) / 1000) } ?? .distantFuture
        let rows = try await db.sql.raw(
            """
            SELECT r.id, r.user_id, r.name, r.shared_at, u.username, u.display_name
            FROM routes r JOIN users u ON u.id = r.user_id
            WHERE r.shared_at IS NOT NULL AND r.shared_at <= \(bind: newest) AND r.visibility <> 'private'
              AND \(RouteAccess.visible(to: viewer.id, today: LocalTime.utcDay(of: viewer.now)))
              AND (r.user_id = \(bind: viewer.id) OR EXISTS (SELECT 1 FROM follows f
                WHERE f.follower_id = \(bind: viewer.id) AND f.followee_id = r.user_id AND f.status = 'accepted'))
            ORDER BY r.shared_at DESC, r.id DESC
            LIMIT \(literal: max(1, limit) + 1)
            """
        ).all(decoding: Row.self)
        return rows.map { row in
            FeedItem(
                at: Feed.milliseconds(row.shared_at), key: "route:\(SiteURL.id(row.id))", kind: "route", actorName: row.display_name,
                actorURL: SiteURL.person(username: row.username).path, text: t("shared a route"), title: row.name, url: SiteURL.route(row.id).path,
                detail: t("Route"), isViewers: row.user_id == viewer.id)
        }
    }
}
