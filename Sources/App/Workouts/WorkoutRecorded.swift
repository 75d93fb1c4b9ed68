import Fluent
import Foundation
import Vapor

/// A feature that acts when a person records a workout (Community checks for badges). Workouts
/// calls every feature in `app.features` that adopts it, without naming any.
protocol WorkoutListener: Feature {
    /// Called in the request that added or finished one of the person's workouts, on its
    /// database: work that follows from it is enqueued here, so it commits with the workout.
    static func workoutRecorded(by userID: UUID, now: Date, on db: any Database) async throws
}

/// What happens after a workout was added or finished, wherever it came from (the form, a file,
/// the device API), in this order:
/// 1. goals the workout reaches are announced (`GoalProgress.announce`);
/// 2. every `WorkoutListener` hears of it (Community: badges, checked at the end of the minute).
/// A duplicate upload or a rejected file records nothing, so it announces nothing.
enum WorkoutRecorded {
    static func announce(for user: User, on req: Request) async throws {
        try await GoalProgress.announce(for: user, now: req.now, on: req.db)
        let userID = try user.requireID()
        for listener in req.application.features.compactMap({ $0 as? any WorkoutListener.Type }) {
            try await listener.workoutRecorded(by: userID, now: req.now, on: req.db)
        }
    }
}
