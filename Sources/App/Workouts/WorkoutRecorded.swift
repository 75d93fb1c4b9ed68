import Fluent
import Foundation

/// What happens after a workout was added or finished, wherever it came from (the form, a file,
/// the device API): goals reached are announced, and features built on workouts hear of it
/// (`Feature.workoutRecorded`) without Workouts naming them.
enum WorkoutRecorded {
    static func announce(for user: User, now: Date, on db: any Database) async throws {
        try await GoalProgress.announce(for: user, now: now, on: db)
        let userID = try user.requireID()
        for feature in Features.all { try await feature.workoutRecorded(by: userID, now: now, on: db) }
    }
}
