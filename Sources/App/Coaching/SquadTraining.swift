import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// The training of all of a coach's athletes, read in a handful of queries for the whole squad
/// (never one per athlete): the dashboard, the weekly review and the athlete page are built on it.
struct SquadTraining {
    struct Athlete: Sendable {
        let id: UUID
        let username: String
        let name: String
        let zone: TimeZone
    }

    /// A finished workout, as numbers, with its local day in the athlete's time zone.
    struct Done: Sendable {
        let athlete: Int
        let sport: WorkoutSport
        let start: Int64
        let day: String
        let duration: Double
        let distance: Double?
        let trimp: Double?
        let calories: Double?
        let steps: Double?
    }

    struct Plan: Sendable {
        let id: UUID
        let athlete: Int
        /// Who planned it: only they may remove it.
        let coach: UUID
        let day: String
        let sport: WorkoutSport
        let duration: Double?
        let distance: Double?
        let description: String
    }

    let athletes: [Athlete]

    /// The coach's active athletes, by name; only members of `team` when one is given.
    static func load(coach: UUID, team: UUID? = nil, on db: any Database) async throws -> SquadTraining {
        struct Row: Decodable { let id: UUID; let username: String; let display_name: String; let time_zone: String }
        var query: SQLQueryString = """
            SELECT u.id, u.username, u.display_name, u.time_zone FROM coach_grants g JOIN users u ON u.id = g.athlete_id
            WHERE g.coach_id = \(bind: coach) AND g.status = 'active'
            """
        if let team {
            query.appendInterpolation(unsafeRaw: " AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id AND m.team_id = ")
            query.appendInterpolation(bind: team)
            query.appendInterpolation(unsafeRaw: ")")
        }
        query.appendInterpolation(unsafeRaw: " ORDER BY u.display_name")
        let rows = try await db.sql.raw(query).all(decoding: Row.self)
        return SquadTraining(
            athletes: rows.map {
                Athlete(id: $0.id, username: $0.username, name: $0.display_name, zone: TimeZone.named($0.time_zone))
            })
    }

    /// `CASE user_id WHEN … THEN 0 …`: each row's athlete as an index, so rows can be read as numbers.
    private func athleteIndex() -> SQLQueryString {
        var text = SQLQueryString("CASE user_id")
        for (index, athlete) in athletes.enumerated() {
            text.appendInterpolation(unsafeRaw: " WHEN ")
            text.appendInterpolation(bind: athlete.id)
            text.appendInterpolation(unsafeRaw: " THEN \(index)")
        }
        text.appendInterpolation(unsafeRaw: " END")
        return text
    }

    private func idList() -> SQLQueryString {
        var text = SQLQueryString("(")
        for (index, athlete) in athletes.enumerated() {
            if index > 0 { text.appendInterpolation(unsafeRaw: ", ") }
            text.appendInterpolation(bind: athlete.id)
        }
        text.appendInterpolation(unsafeRaw: ")")
        return text
    }

    private static let sportIndex: String =
        "CASE sport" + WorkoutSport.allCases.enumerated().map { " WHEN '\($1.rawValue)' THEN \($0)" }.joined() + " ELSE \(WorkoutSport.allCases.count - 1) END"

    /// Finished workouts that started between two times, as the coach may know them: what the
    /// athlete's privacy zones leave visible (`Workout.share`), as on the workout's page.
    func workouts(from: Int64, to: Int64, on db: any Database) async throws -> [Done] {
        guard !athletes.isEmpty else { return [] }
        let rows = try await db.sql.numberRows(
            """
            SELECT \(athleteIndex()) AS who, \(unsafeRaw: Self.sportIndex) AS sport, shared_start_ms AS start_ms,
              COALESCE(shared_duration_s, duration_s) AS duration_s, COALESCE(shared_distance_m, distance_m) AS distance_m, trimp, calories_kcal, steps
            FROM workouts WHERE user_id IN \(idList()) AND end_ms IS NOT NULL AND start_ms >= \(bind: from) AND start_ms < \(bind: to)
            ORDER BY start_ms
            """, columns: ["who", "sport", "start_ms", "duration_s", "distance_m", "trimp", "calories_kcal", "steps"])
        return rows.compactMap { row in
            guard let who = row[0].map(Int.init), athletes.indices.contains(who), let start = row[2].map(Int64.init) else { return nil }
            let clock = WallClock(Date(timeIntervalSince1970: Double(start) / 1000), zone: athletes[who].zone)
            return Done(
                athlete: who, sport: WorkoutSport.allCases[Int(row[1] ?? 0)], start: start,
                day: Format.isoDay(clock),
                duration: row[3] ?? 0, distance: row[4], trimp: row[5], calories: row[6], steps: row[7])
        }
    }

    /// Each athlete's most recent finished workout: its id, name, sport and start.
    func lastWorkouts(on db: any Database) async throws -> [Int: (id: UUID, name: String, sport: WorkoutSport, start: Int64)] {
        guard !athletes.isEmpty else { return [:] }
        struct Row: Decodable { let id: UUID; let user_id: UUID; let name: String; let sport: String; let start_ms: Int64 }
        // One index lookup per athlete (newest first, first row), all in one statement: a MAX per
        // group would read every workout the squad ever did.
        var query = SQLQueryString("")
        for (position, athlete) in athletes.enumerated() {
            if position > 0 { query.appendInterpolation(unsafeRaw: " UNION ALL ") }
            query.appendInterpolation(unsafeRaw: "SELECT * FROM (SELECT id, user_id, name, sport, start_ms FROM workouts WHERE user_id = ")
            query.appendInterpolation(bind: athlete.id)
            query.appendInterpolation(unsafeRaw: " AND end_ms IS NOT NULL ORDER BY start_ms DESC LIMIT 1) AS last\(position)")
        }
        let rows = try await db.sql.raw(query).all(decoding: Row.self)
        let index = Dictionary(athletes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        var last: [Int: (id: UUID, name: String, sport: WorkoutSport, start: Int64)] = [:]
        for row in rows {
            guard let who = index[row.user_id] else { continue }
            last[who] = (row.id, row.name, WorkoutSport(rawValue: row.sport) ?? .other, row.start_ms)
        }
        return last
    }

    /// Planned sessions on the days from `first` to `last` ("2026-11-23"), oldest first.
    func plans(from first: String, through last: String, on db: any Database) async throws -> [Plan] {
        guard !athletes.isEmpty else { return [] }
        struct Row: Decodable {
            let id: UUID; let athlete_id: UUID; let coach_id: UUID; let day: String; let sport: String
            let duration_s: Double?; let distance_m: Double?; let description: String
        }
        let rows = try await db.sql.raw(
            """
            SELECT id, athlete_id, coach_id, day, sport, duration_s, distance_m, description FROM planned_workouts
            WHERE athlete_id IN \(idList()) AND day >= \(bind: first) AND day <= \(bind: last) ORDER BY day, created_at
            """
        ).all(decoding: Row.self)
        let index = Dictionary(athletes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        return rows.compactMap { row in
            guard let who = index[row.athlete_id] else { return nil }
            return Plan(
                id: row.id, athlete: who, coach: row.coach_id, day: row.day, sport: WorkoutSport(rawValue: row.sport) ?? .other,
                duration: row.duration_s, distance: row.distance_m, description: row.description)
        }
    }

    /// How a plan was met by the workouts of its athlete, day and sport; nil while it is still
    /// ahead (or today) and nothing has been done.
    static func compliance(of plan: Plan, done: [Done], today: String) -> Compliance? {
        let matching = done.filter { $0.athlete == plan.athlete && $0.day == plan.day && $0.sport == plan.sport }
        if matching.isEmpty && plan.day >= today { return nil }
        if let duration = plan.duration {
            return Compliance(planned: duration, done: matching.isEmpty ? nil : matching.map(\.duration).reduce(0, +))
        }
        let distances = matching.compactMap(\.distance)
        return Compliance(planned: plan.distance ?? 0, done: distances.isEmpty ? nil : distances.reduce(0, +))
    }
}

extension SquadTraining {
    /// How many of each athlete's active goals their current day or week has reached, from the
    /// workouts already read (`done` must reach back to the start of this week).
    func goalCompletion(done: [Done], now: Date, on db: any Database) async throws -> [Int: (reached: Int, total: Int)] {
        guard !athletes.isEmpty else { return [:] }
        struct Row: Decodable { let user_id: UUID; let period: String; let metric: String; let target: Double }
        let rows = try await db.sql.raw(
            """
            SELECT user_id, period, metric, target FROM goals WHERE enabled = \(bind: true) AND user_id IN \(idList())
            """
        ).all(decoding: Row.self)
        let index = Dictionary(athletes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        var result: [Int: (reached: Int, total: Int)] = [:]
        for row in rows {
            guard let who = index[row.user_id], let period = Goal.Period(rawValue: row.period), let metric = Goal.Metric(rawValue: row.metric) else { continue }
            let clock = WallClock(now, zone: athletes[who].zone)
            let today = CalendarDate(year: clock.year, month: clock.month, day: clock.day)!
            let first = period == .day ? today.description : ReportPeriod.week.start(containing: today).description
            let inPeriod = done.filter { $0.athlete == who && $0.day >= first }
            let amount: Double =
                switch metric {
                case .distance: inPeriod.compactMap(\.distance).reduce(0, +)
                case .duration: inPeriod.map(\.duration).reduce(0, +)
                case .steps: inPeriod.compactMap(\.steps).reduce(0, +)
                case .calories: inPeriod.compactMap(\.calories).reduce(0, +)
                }
            var entry = result[who] ?? (0, 0)
            entry.total += 1
            if amount >= row.target { entry.reached += 1 }
            result[who] = entry
        }
        return result
    }
}
