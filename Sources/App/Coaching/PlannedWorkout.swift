import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// A session a coach plans for an athlete on a day: a sport and a planned duration, distance or
/// both. A finished workout of that sport on that day (the athlete's own calendar) fulfils it.
final class PlannedWorkout: Model, @unchecked Sendable {
    static let schema = "planned_workouts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "coach_id") var coach: User
    @Parent(key: "athlete_id") var athlete: User
    /// "2026-11-23", the athlete's local day.
    @Field(key: "day") var day: String
    @Field(key: "sport") var sport: String
    @OptionalField(key: "duration_s") var duration: Double?
    @OptionalField(key: "distance_m") var distance: Double?
    @Field(key: "description") var description: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(coach: UUID, athlete: UUID, day: String, sport: WorkoutSport, duration: Double?, distance: Double?, description: String) {
        self.$coach.id = coach
        self.$athlete.id = athlete
        self.day = day
        self.sport = sport.rawValue
        self.duration = duration
        self.distance = distance
        self.description = description
    }
}

/// A planned session as the athlete's home page lists it: by a coach who still coaches them.
struct PlannedLine: Decodable {
    let day: String
    let sport: String
    let duration: Double?
    let distance: Double?
    let description: String
    let coachName: String

    enum CodingKeys: String, CodingKey {
        case day, sport, description
        case duration = "duration_s", distance = "distance_m", coachName = "display_name"
    }

    /// The athlete's sessions from `from` through `through`, day by day, in one read (a coach whose
    /// grant ended plans nothing more for them).
    static func upcoming(for athlete: UUID, from: CalendarDate, through: CalendarDate, on db: any Database) async throws -> [PlannedLine] {
        try await db.sql.raw(
            """
            SELECT p.day, p.sport, p.duration_s, p.distance_m, p.description, u.display_name
            FROM planned_workouts p
            JOIN coach_grants g ON g.coach_id = p.coach_id AND g.athlete_id = p.athlete_id AND g.status = \(bind: CoachGrant.Status.active.rawValue)
            JOIN users u ON u.id = p.coach_id
            WHERE p.athlete_id = \(bind: athlete) AND p.day >= \(bind: from.description) AND p.day <= \(bind: through.description)
            ORDER BY p.day, p.created_at
            """
        ).all(decoding: PlannedLine.self)
    }
}
