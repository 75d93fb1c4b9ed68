import Fluent
import Foundation

/// An athlete's accepted coaches see every workout and all their heart rate, and the athlete and
/// their coaches talk under each workout.
extension Coaching: WorkoutCompanion {
    static func seesAllWorkouts(of ownerID: UUID, viewer viewerID: UUID, on db: any Database) async throws -> Bool {
        try await AthleteAccess.coaches(viewerID, athlete: ownerID, on: db)
    }

    static func conversation(under workout: Workout, owner: User, viewer: User, on db: any Database) async throws -> WorkoutConversation? {
        guard try await WorkoutComments.canTalk(workout, viewer: viewer, on: db) else { return nil }
        return WorkoutConversation(
            comments: try await WorkoutComments.views(of: workout, viewer: viewer, on: db),
            coachOf: viewer.id == owner.id ? nil : owner.username)
    }
}
