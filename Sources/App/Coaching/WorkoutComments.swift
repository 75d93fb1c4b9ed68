import FieldhouseKit
import Fluent
import Foundation

/// The conversation under a workout between the athlete and their coaches: who may take part,
/// and the comments as pages show them.
enum WorkoutComments {
    typealias Item = WorkoutConversation.Comment

    /// Whether `viewer` may read and write comments under `workout`: its athlete, or a coach of theirs.
    static func canTalk(_ workout: Workout, viewer: User?, on db: any Database) async throws -> Bool {
        guard let viewerID = viewer?.id else { return false }
        if workout.$user.id == viewerID { return true }
        return try await AthleteAccess.coaches(viewerID, athlete: workout.$user.id, on: db)
    }

    /// The comments under a workout, oldest first, for someone who may read them.
    static func views(of workout: Workout, viewer: User, on db: any Database) async throws -> [Item] {
        let format = Format(viewer)
        let workoutID = try workout.requireID()
        return try await WorkoutComment.query(on: db).filter(\.$workout.$id == workoutID).with(\.$author)
            .sort(\.$createdAt).all().map { comment in
                let id = try comment.requireID()
                let mine = comment.$author.id == viewer.id
                return Item(
                    anchor: "comment-" + SiteURL.id(id), author: comment.author.displayName,
                    authorURL: SiteURL.person(username: comment.author.username).path,
                    when: comment.createdAt.map(format.when) ?? "", datetime: comment.createdAt.map(Format.machine) ?? "",
                    // Rows from before the thread's clock carry an update time at their creation.
                    edited: (comment.updatedAt ?? .distantPast).timeIntervalSince(comment.createdAt ?? .distantPast) > 1,
                    html: Markdown.html(comment.body), onlyCoaches: true,
                    editURL: mine ? SiteURL.editWorkoutComment(workoutID, id).path : nil,
                    deleteAction: mine ? SiteURL.deleteWorkoutComment(workoutID, id).path : nil)
            }
    }

    /// Why a comment's text cannot be kept, if it cannot.
    static func check(_ body: String) -> String? {
        if body.isEmpty { return t("Write something first.") }
        if body.count > WorkoutComment.maxLength {
            return t("Keep a comment to {max} characters; this one has {length}.", WorkoutComment.maxLength, body.count)
        }
        return nil
    }
}
