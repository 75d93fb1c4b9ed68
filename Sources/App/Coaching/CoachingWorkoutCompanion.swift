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
        let coaching = viewer.id != owner.id
        return WorkoutConversation(
            comments: try await WorkoutComments.views(of: workout, viewer: viewer, on: db),
            coachOf: coaching ? owner.username : nil,
            leadsHere: coaching
                ? [
                    BackLink(.athlete(username: owner.username), t("{name}'s training", owner.displayName)),
                    BackLink(.coachWeek, t("Weekly review")), BackLink(.coach, t("Coaching")),
                ] : [])
    }
}
