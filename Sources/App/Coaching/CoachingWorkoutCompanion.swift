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
            coachOf: coaching ? owner.username : nil,
            leadsHere: coaching
                ? [
                    BackLink(.athlete(username: owner.username), t("{name}'s training", owner.displayName)),
                    BackLink(.coachWeek, t("Weekly review")), BackLink(.coach, t("Coaching")),
                ] : [])
    }

    /// The coaches' comments: for the athlete and their coaches alone.
    static func comments(under workout: Workout, owner: User, viewer: User, today: CalendarDate, on db: any Database) async throws -> [WorkoutConversation
        .Comment]
    {
        guard try await WorkoutComments.canTalk(workout, viewer: viewer, on: db) else { return [] }
        return try await WorkoutComments.views(of: workout, viewer: viewer, on: db)
    }

    /// Keeps a comment marked "only my coaches" from the athlete or a coach of theirs; the other
    /// side hears of it.
    static func addComment(_ comment: NewWorkoutComment, on db: any Database) async throws -> WorkoutCommentOutcome? {
        guard comment.onlyCoaches else { return nil }
        let workout = comment.workout, author = comment.author
        guard try await WorkoutComments.canTalk(workout, viewer: author, on: db) else {
            return .refused(.forbidden, t("Only the athlete and their coaches can write comments for the coaches."))
        }
        if let problem = WorkoutComments.check(comment.body) { return .refused(.unprocessableEntity, problem) }
        let kept = WorkoutComment(workout: try workout.requireID(), author: try author.requireID(), body: comment.body, at: comment.now)
        try await kept.create(on: db)
        let recipients = workout.$user.id == author.id ? try await AthleteAccess.coachIDs(of: workout.$user.id, on: db) : [workout.$user.id]
        try await Notification.send(
            to: recipients, from: author.id, kind: .workoutComment, text: t("{name} commented on “{workout}”.", author.displayName, workout.name),
            link: SiteURL.workout(try workout.requireID()).fragment("comments"), on: db)
        return .added(anchor: "comment-" + SiteURL.id(try kept.requireID()))
    }
}
