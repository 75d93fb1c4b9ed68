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
