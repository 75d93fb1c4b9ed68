import Fluent
import Foundation

/// One person's kudos for one workout: at most one each (a unique pair), gone with either.
final class Kudos: Model, @unchecked Sendable {
    static let schema = "kudos"

    @ID(key: .id) var id: UUID?
    @Parent(key: "workout_id") var workout: Workout
    @Parent(key: "giver_id") var giver: User
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(workout: UUID, giver: UUID) {
        self.$workout.id = workout
        self.$giver.id = giver
    }
}
