import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Awards badges. A workout recorded enqueues a check of its owner (`personKind`); every minute a
/// sweep checks the people whose challenge replies were accepted or whose games ended in the last
/// ten minutes. Each check reads the person's whole record and gives the badges it earns that they
/// do not have yet. Awarding is idempotent (one row per person and badge, inserted only when
/// missing), so overlapping sweeps, a retried job or a second process give nothing twice; and a
/// badge missed while the server was down comes with the person's next workout.
enum BadgeAwards {
    static let lookback: TimeInterval = 600

    static let kind = JobKind("community.badges", every: 60) { run in
        for person in try await recentlyActive(since: run.due.addingTimeInterval(-lookback), now: run.now, on: run.db) {
            try await award(to: person, now: run.now, on: run.db)
        }
    }

    struct Person: Codable { let user: UUID }

    static let personKind = JobKind("community.badges.person") { run in
        try await award(to: run.payload(as: Person.self).user, now: run.now, on: run.db)
    }

    /// People with something new that may earn a badge.
    static func recentlyActive(since: Date, now: Date, on db: any Database) async throws -> Set<UUID> {
        struct Row: Decodable { let id: UUID }
        let sql = db as! any SQLDatabase
        // Games count once they are over: those that ended since, read from a day back at most.
        let rows = try await sql.raw(
            """
            SELECT user_id AS id FROM challenge_responses WHERE judged_at >= \(bind: since) AND status = 'accepted'
            UNION SELECT gp.user_id AS id FROM game_players gp JOIN games g ON g.id = gp.game_id
              WHERE g.starts_at >= \(bind: since.addingTimeInterval(-86_400)) AND g.starts_at <= \(bind: now) AND g.status = 'scheduled'
            """
        ).all(decoding: Row.self)
        return Set(rows.map(\.id))
    }

    /// What the person did, read from their whole record, days and months in their time zone.
    static func facts(of userID: UUID, now: Date, on db: any Database) async throws -> ActivityFacts {
        let sql = db as! any SQLDatabase
        struct Zone: Decodable { let time_zone: String }
        guard let zone = try await sql.raw("SELECT time_zone FROM users WHERE id = \(bind: userID)").first(decoding: Zone.self) else {
            return ActivityFacts()
        }
        let tz = Format.zone(named: zone.time_zone)
        var facts = ActivityFacts()
        struct Done: Decodable {
            let start_ms: Int64
            let duration_s: Double
            let distance_m: Double?
            let sport: String
        }
        var sportsByDay: [String: Set<String>] = [:]
        for workout in try await sql.raw(
            "SELECT start_ms, duration_s, distance_m, sport FROM workouts WHERE user_id = \(bind: userID) AND end_ms IS NOT NULL"
        ).all(decoding: Done.self) {
            let clock = WallClock(Date(timeIntervalSince1970: Double(workout.start_ms) / 1000), zone: tz)
            guard let day = CalendarDate(year: clock.year, month: clock.month, day: clock.day)?.description else { continue }
            facts.addWorkout(day: day, seconds: workout.duration_s, metres: workout.distance_m)
            sportsByDay[day, default: []].insert(workout.sport)
        }
        struct Count: Decodable { let n: Int }
        facts.challengesCompleted =
            try await sql.raw("SELECT COUNT(*) AS n FROM challenge_responses WHERE user_id = \(bind: userID) AND status = 'accepted'")
            .first(decoding: Count.self)?.n ?? 0
        struct Played: Decodable {
            let starts_at: Date
            let duration_minutes: Int
        }
        facts.gamesPlayed = try await sql.raw(
            """
            SELECT g.starts_at, g.duration_minutes FROM game_players gp JOIN games g ON g.id = gp.game_id
            WHERE gp.user_id = \(bind: userID) AND gp.status IN ('joined', 'going') AND g.status = 'scheduled' AND g.starts_at <= \(bind: now)
            """
        ).all(decoding: Played.self).filter { $0.starts_at.addingTimeInterval(Double($0.duration_minutes) * 60) <= now }.count
        struct Planned: Decodable {
            let day: String
            let sport: String
        }
        facts.coachSessionsDone = try await sql.raw("SELECT day, sport FROM planned_workouts WHERE athlete_id = \(bind: userID)")
            .all(decoding: Planned.self).filter { sportsByDay[$0.day]?.contains($0.sport) ?? false }.count
        return facts
    }

    /// Gives the person every badge their record earns and they do not have yet, each with a note.
    static func award(to userID: UUID, now: Date, on db: any Database) async throws {
        let earned = BadgeRules.earned(try await facts(of: userID, now: now, on: db))
        guard !earned.isEmpty else { return }
        let held = Set(try await Badge.query(on: db).filter(\.$owner.$id == userID).all().map(\.kind))
        for kind in BadgeKind.allCases where earned.contains(kind) && !held.contains(kind.rawValue) {
            // A sweep in another process may give it at the same moment: the loser inserts nothing
            // and tells nothing, rather than failing its whole transaction on the unique pair.
            guard
                try await (db as! any SQLDatabase).raw(
                    """
                    INSERT INTO badges (id, user_id, kind, earned_at) VALUES (\(bind: UUID()), \(bind: userID), \(bind: kind.rawValue), \(bind: now))
                    ON CONFLICT (user_id, kind) DO NOTHING RETURNING id
                    """
                ).first() != nil
            else { continue }
            try await Notification.send(
                to: [userID], from: nil, kind: .badge, text: "New badge: \(kind.title). \(kind.rule)", link: SiteURL.badges.path, on: db)
        }
    }
}
