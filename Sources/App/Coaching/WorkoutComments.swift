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
        return try await WorkoutComment.query(on: db).filter(\.$workout.$id == workout.requireID()).with(\.$author)
            .sort(\.$createdAt).all().map { comment in
                Item(
                    id: try comment.requireID().uuidString.lowercased(), author: comment.author.displayName, authorUsername: comment.author.username,
                    when: comment.createdAt.map(format.when) ?? "",
                    edited: (comment.updatedAt ?? .distantPast).timeIntervalSince(comment.createdAt ?? .distantPast) > 1,
                    html: Markdown.html(comment.body), mine: comment.$author.id == viewer.id)
            }
    }
}
