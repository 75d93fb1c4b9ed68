import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// The rating among friends or a team: who moved most this week or month, by minutes, distance,
/// workouts or points. It counts only workouts the viewer may open (`WorkoutAccess.canView`'s rule
/// short of a coach's view: their own, public ones of people 16 or older, and the followers-only
/// ones and those of children of people they follow),
/// so a person who keeps their workouts to themselves is left out, and nobody learns from a rank
/// what they could not see on a profile. Others' totals count only what their privacy zones leave
/// visible (`Workout.share`); the viewer's own count whole.
enum Leaderboard {
    enum Measure: String, CaseIterable, Sendable {
        case minutes, distance, workouts, points

        var label: String {
            switch self {
            case .minutes: t("Active minutes")
            case .distance: t("Distance")
            case .workouts: t("Workouts")
            case .points: t("Points")
            }
        }
    }

    enum Scope: Equatable {
        case friends
        case team(UUID)
    }

    /// Ten points for turning up, one for each minute: short and often counts as much as long.
    static let pointsPerWorkout = 10

    struct Totals: Sendable {
        var seconds: Double
        var metres: Double
        var workouts: Int

        func value(_ measure: Measure) -> Double {
            switch measure {
            case .minutes: (seconds / 60).rounded(.down)
            case .distance: metres
            case .workouts: Double(workouts)
            case .points: (seconds / 60).rounded(.down) + Double(workouts * Leaderboard.pointsPerWorkout)
            }
        }
    }

    struct Row: Sendable {
        let rank: Int
        let person: UUID
        let value: Double
        let totals: Totals
    }

    /// The most people a board ranks: past this many (a huge public team), the rest are not read,
    /// and a viewer among them is shown below the list with their own totals.
    static let mostPeople = 2_000

    /// The totals of the people in scope with a workout the viewer may open in [from, to), the
    /// first `mostPeople` of them by `measure`, and the viewer's own (zero when they did nothing).
    static func totals(
        scope: Scope, viewer: UUID, from: Date, to: Date, by measure: Measure, today: CalendarDate, on db: any Database
    ) async throws -> [UUID: Totals] {
        let sql = db.sql
        // The people stay in SQL (a team may have more members than a query may bind).
        let members: SQLQueryString
        switch scope {
        case .friends:
            members = """
                SELECT a.followee_id FROM follows a
                JOIN follows b ON b.follower_id = a.followee_id AND b.followee_id = a.follower_id
                WHERE a.follower_id = \(bind: viewer) AND a.status = 'accepted' AND b.status = 'accepted'
                """
        case .team(let team):
            members = "SELECT user_id FROM memberships WHERE team_id = \(bind: team)"
        }
        let order: SQLQueryString =
            switch measure {
            case .minutes: "SUM(COALESCE(w.shared_duration_s, w.duration_s))"
            case .distance: "SUM(COALESCE(w.shared_distance_m, w.distance_m, 0))"
            case .workouts: "COUNT(*)"
            case .points: "SUM(COALESCE(w.shared_duration_s, w.duration_s)) / 60 + \(unsafeRaw: String(pointsPerWorkout)) * COUNT(*)"
            }
        struct Sum: Decodable {
            let user_id: UUID
            let seconds: Double
            let metres: Double
            let workouts: Int
        }
        let window: SQLQueryString = """
            w.end_ms IS NOT NULL AND w.shared_start_ms >= \(bind: Feed.milliseconds(from)) AND w.shared_start_ms < \(bind: Feed.milliseconds(to))
            """
        // Each query names its people once (no OR), so the planner reads `workouts_feed_idx` per person.
        let sums = try await sql.raw(
            """
            SELECT w.user_id, SUM(COALESCE(w.shared_duration_s, w.duration_s)) AS seconds,
              SUM(COALESCE(w.shared_distance_m, w.distance_m, 0)) AS metres, COUNT(*) AS workouts
            FROM workouts w
            WHERE \(window) AND w.user_id IN (\(members))
              AND (\(WorkoutAccess.everyoneSQL("w", today: today)) OR (w.visibility IN ('public', 'followers') AND w.user_id IN (
                SELECT followee_id FROM follows WHERE follower_id = \(bind: viewer) AND status = 'accepted')))
            GROUP BY w.user_id
            ORDER BY \(order) DESC
            LIMIT \(literal: mostPeople)
            """
        ).all(decoding: Sum.self)
        let mine = try await sql.raw(
            """
            SELECT w.user_id, SUM(w.duration_s) AS seconds, SUM(COALESCE(w.distance_m, 0)) AS metres, COUNT(*) AS workouts
            FROM workouts w WHERE \(window) AND w.user_id = \(bind: viewer) GROUP BY w.user_id
            """
        ).all(decoding: Sum.self)
        var totals = Dictionary(
            (sums + mine).map { ($0.user_id, Totals(seconds: $0.seconds, metres: $0.metres, workouts: $0.workouts)) },
            uniquingKeysWith: { _, last in last })
        if totals[viewer] == nil { totals[viewer] = Totals(seconds: 0, metres: 0, workouts: 0) }
        return totals
    }

    /// The rows by `measure`, highest first (ties share a rank: 1, 2, 2, 4). Rank only the people
    /// who will be shown, so a hidden person leaves no gap to count.
    static func rows(_ totals: [UUID: Totals], by measure: Measure) -> [Row] {
        let ordered = totals.map { (person: $0.key, value: $0.value.value(measure), totals: $0.value) }.sorted { $0.value > $1.value }
        return ranked(ordered)
    }

    /// Competition ranking over values sorted from highest: equal values share the better rank.
    static func ranked(_ sorted: [(person: UUID, value: Double, totals: Totals)]) -> [Row] {
        var rows: [Row] = []
        for (index, entry) in sorted.enumerated() {
            let rank = index > 0 && sorted[index - 1].value == entry.value ? rows[index - 1].rank : index + 1
            rows.append(Row(rank: rank, person: entry.person, value: entry.value, totals: entry.totals))
        }
        return rows
    }
}
