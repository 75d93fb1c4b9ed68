import Fluent
import Foundation

/// The workout page's kudos, comments and gift links, for signed-in viewers who may see it (the
/// page checked that before asking).
extension Community: WorkoutCompanion {
    static func responses(to workout: Workout, viewer: User, on db: any Database) async throws -> [WorkoutResponse] {
        guard workout.endMS != nil else { return [] }
        let workoutID = try workout.requireID(), viewerID = try viewer.requireID()
        let givers = try await Kudos.query(on: db).filter(\.$workout.$id == workoutID).all().map { $0.$giver.id }
        let subject = "workout:\(SiteURL.id(workoutID))"
        let comments = try await FeedComment.query(on: db).filter(\.$subject == subject).count()
        let isOwner = workout.$user.id == viewerID
        var links: [WorkoutResponse] = []
        if !isOwner && !givers.contains(viewerID) {
            links.append(WorkoutResponse(text: t("Give kudos"), url: SiteURL.workoutKudos(workoutID).path, post: true))
        }
        if !givers.isEmpty {
            let others = givers.count - (givers.contains(viewerID) ? 1 : 0)
            let text =
                !givers.contains(viewerID)
                ? tn("{count} kudos", "{count} kudos", givers.count)
                : others == 0 ? t("You gave kudos") : tn("You and {count} more gave kudos", "You and {count} more gave kudos", others)
            links.append(WorkoutResponse(text: text, url: SiteURL.workoutKudos(workoutID).path))
        }
        links.append(
            WorkoutResponse(text: comments == 0 ? t("Comment") : tn("{count} comment", "{count} comments", comments), url: SiteURL.feedComments(on: subject)))
        if !isOwner { links.append(WorkoutResponse(text: t("Send a gift"), url: SiteURL.newGift(for: subject))) }
        return links
    }
}
