import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Awards badges. A badge is the owner's to see whatever earned it. Followers (in the feed, on gift
/// and comment pages) see it once what the person shares with followers earns it too (`shared`:
/// workouts that are not private, public challenges and public games), placed at that moment
/// (`shown_at`); anyone (a public profile) once public workouts alone earn it (`public`). So a
/// badge never tells anyone of a private workout, a private team's game or a coach. Once shown, a
/// badge stays shown, even if the workouts that earned it are later made private or deleted. A workout recorded enqueues a check of its owner (`personKind`); every minute a
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
        let sql = db.sql
        let rows = try await sql.raw(
            """
            SELECT user_id AS id FROM challenge_responses WHERE judged_at >= \(bind: since) AND status = 'accepted'
            """
        ).all(decoding: Row.self)
        // Games count once they are over: players of those that ended in the window (games last a
        // day at most, so they started within a day before it).
        struct Ended: Decodable {
            let user_id: UUID
            let starts_at: Date
            let duration_minutes: Int
        }
        let ended = try await sql.raw(
            """
            SELECT gp.user_id, g.starts_at, g.duration_minutes FROM game_players gp JOIN games g ON g.id = gp.game_id
            WHERE g.starts_at >= \(bind: since.addingTimeInterval(-86_400)) AND g.starts_at <= \(bind: now) AND g.status = 'scheduled'
              AND gp.status IN ('joined', 'going')
            """
        ).all(decoding: Ended.self).filter { game in
            let end = game.starts_at.addingTimeInterval(Double(game.duration_minutes) * 60)
            return end >= since && end <= now
        }
        return Set(rows.map(\.id) + ended.map(\.user_id))
    }

    /// What the person did, read from their whole record, days and months in their time zone: all
    /// of it, and the part they share with others.
    static func facts(of userID: UUID, now: Date, on db: any Database) async throws -> (
        all: ActivityFacts, shared: ActivityFacts, everyone: ActivityFacts
    ) {
        let sql = db.sql
        struct Zone: Decodable {
            let time_zone: String
            let birth_date: String?
        }
        guard let zone = try await sql.raw("SELECT time_zone, birth_date FROM users WHERE id = \(bind: userID)").first(decoding: Zone.self) else {
            return (ActivityFacts(), ActivityFacts(), ActivityFacts())
        }
        let tz = TimeZone.named(zone.time_zone)
        var all = ActivityFacts(), shared = ActivityFacts(), everyone = ActivityFacts()
        // A person under 16 reaches followers at most (`Workout.reach`), so nothing of theirs earns a public badge.
        let childNow = zone.birth_date.map { !($0 <= User.sixteenCutoff(on: LocalTime.utcDay(of: now))) } ?? true
        struct Done: Decodable {
            let start_ms: Int64
            let duration_s: Double
            let distance_m: Double?
            let shared_duration_s: Double?
            let shared_distance_m: Double?
            let sport: String
            let visibility: String
        }
        var sportsByDay: [String: Set<String>] = [:]
        for workout in try await sql.raw(
            """
            SELECT start_ms, duration_s, distance_m, shared_duration_s, shared_distance_m, sport, visibility
            FROM workouts WHERE user_id = \(bind: userID) AND end_ms IS NOT NULL
            """
        ).all(decoding: Done.self) {
            let clock = WallClock(Date(timeIntervalSince1970: Double(workout.start_ms) / 1000), zone: tz)
            let day = Format.isoDay(clock)
            all.addWorkout(day: day, seconds: workout.duration_s, metres: workout.distance_m)
            // Others know only what the privacy zones leave of a track (`Workout.share`).
            let seconds = workout.shared_duration_s ?? workout.duration_s, metres = workout.shared_distance_m ?? workout.distance_m
            if workout.visibility != "private" { shared.addWorkout(day: day, seconds: seconds, metres: metres) }
            if workout.visibility == "public" && !childNow { everyone.addWorkout(day: day, seconds: seconds, metres: metres) }
            sportsByDay[day, default: []].insert(workout.sport)
        }
        struct Completed: Decodable { let is_public: Bool }
        let completed = try await sql.raw(
            """
            SELECT c.is_public FROM challenge_responses r JOIN challenges c ON c.id = r.challenge_id
            WHERE r.user_id = \(bind: userID) AND r.status = 'accepted'
            """
        ).all(decoding: Completed.self)
        all.challengesCompleted = completed.count
        shared.challengesCompleted = completed.filter(\.is_public).count
        everyone.challengesCompleted = shared.challengesCompleted
        struct Played: Decodable {
            let starts_at: Date
            let duration_minutes: Int
            let privacy: String
        }
        let played = try await sql.raw(
            """
            SELECT g.starts_at, g.duration_minutes, g.privacy FROM game_players gp JOIN games g ON g.id = gp.game_id
            WHERE gp.user_id = \(bind: userID) AND gp.status IN ('joined', 'going') AND g.status = 'scheduled' AND g.starts_at <= \(bind: now)
            """
        ).all(decoding: Played.self).filter { $0.starts_at.addingTimeInterval(Double($0.duration_minutes) * 60) <= now }
        all.gamesPlayed = played.count
        shared.gamesPlayed = played.filter { $0.privacy == "public" }.count
        everyone.gamesPlayed = shared.gamesPlayed
        struct Planned: Decodable {
            let day: String
            let sport: String
        }
        // Having a coach is the person's own business: this one is never shared.
        all.coachSessionsDone = try await sql.raw("SELECT day, sport FROM planned_workouts WHERE athlete_id = \(bind: userID)")
            .all(decoding: Planned.self).filter { sportsByDay[$0.day]?.contains($0.sport) ?? false }.count
        return (all, shared, everyone)
    }

    /// Gives the person every badge their record earns and they do not have yet, each with a note,
    /// and lets others see those that what they share now earns.
    static func award(to userID: UUID, now: Date, on db: any Database) async throws {
        let (all, shared, everyone) = try await facts(of: userID, now: now, on: db)
        let earned = BadgeRules.earned(all), shown = BadgeRules.earned(shared), open = BadgeRules.earned(everyone)
        guard !earned.isEmpty else { return }
        let sql = db.sql
        let held = Dictionary(
            try await Badge.query(on: db).filter(\.$owner.$id == userID).all().map { ($0.kind, ($0.shared, $0.isPublic)) },
            uniquingKeysWith: { first, _ in first })
        for kind in BadgeKind.allCases where earned.contains(kind) {
            let isShown = shown.contains(kind), isOpen = open.contains(kind)
            if let (wasShown, wasOpen) = held[kind.rawValue] {
                // Shown from now on, and placed in the feed now: its earning may have been private.
                if isShown && !wasShown {
                    try await sql.raw(
                        "UPDATE badges SET shared = \(bind: true), shown_at = \(bind: now) WHERE user_id = \(bind: userID) AND kind = \(bind: kind.rawValue)"
                    ).run()
                }
                if isOpen && !wasOpen {
                    try await sql.raw("UPDATE badges SET public = \(bind: true) WHERE user_id = \(bind: userID) AND kind = \(bind: kind.rawValue)").run()
                }
                continue
            }
            // A check in another process may give it at the same moment: the loser inserts nothing
            // and tells nothing, rather than failing its whole transaction on the unique pair.
            guard
                try await sql.raw(
                    """
                    INSERT INTO badges (id, user_id, kind, earned_at, shared, public, shown_at)
                    VALUES (\(bind: UUID()), \(bind: userID), \(bind: kind.rawValue), \(bind: now), \(bind: isShown), \(bind: isOpen),
                            \(bind: isShown ? now : nil))
                    ON CONFLICT (user_id, kind) DO NOTHING RETURNING id
                    """
                ).first() != nil
            else { continue }
            try await Notification.send(
                to: [userID], from: nil, kind: .badge, text: t("New badge: {title}. {rule}", kind.title, kind.rule), link: SiteURL.badges.path, on: db)
        }
    }
}
