import FieldhouseKit
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

    /// The comments anyone who sees the workout reads, written as the feed's are (text, shown
    /// through the same Markdown as the coaches'); an author the viewer may not know is "Someone".
    static func comments(under workout: Workout, owner: User, viewer: User, today: CalendarDate, on db: any Database) async throws -> [WorkoutConversation
        .Comment]
    {
        let viewerID = try viewer.requireID()
        let subject = "workout:\(SiteURL.id(try workout.requireID()))"
        // The newest 500, read oldest first: a flood of old comments cannot hide new ones.
        let comments = try await FeedComment.query(on: db).filter(\.$subject == subject).sort(\.$createdAt, .descending).limit(500)
            .with(\.$author).all().reversed()
        let known = Set(try await PersonCard.list(comments.map(\.author), viewer: viewer, today: today, on: db).map(\.username))
        let format = Format(viewer)
        return try comments.map { comment in
            let isKnown = comment.$author.id == viewerID || known.contains(comment.author.username)
            let mayDelete = comment.$author.id == viewerID || comment.$owner.id == viewerID
            return WorkoutConversation.Comment(
                anchor: "comment-" + SiteURL.id(try comment.requireID()), author: isKnown ? comment.author.displayName : t("Someone"),
                authorURL: isKnown ? SiteURL.person(username: comment.author.username).path : nil,
                when: comment.createdAt.map(format.when) ?? "", datetime: comment.createdAt.map(Format.machine) ?? "", edited: false,
                html: Markdown.html(comment.body), onlyCoaches: false, editURL: nil,
                deleteAction: mayDelete ? SiteURL.deleteFeedComment(try comment.requireID()).path : nil)
        }
    }

    /// Keeps a comment for everyone who sees the workout, under the feed's rules (`FeedComment.add`).
    static func addComment(_ comment: NewWorkoutComment, on db: any Database) async throws -> WorkoutCommentOutcome? {
        guard !comment.onlyCoaches else { return nil }
        let subject = try await FeedSubject.resolve(
            "workout:\(SiteURL.id(try comment.workout.requireID()))", viewer: comment.author, kinds: FeedComment.subjectKinds, today: comment.today, on: db)
        switch try await FeedComment.add(comment.body, under: subject, by: comment.author, now: comment.now, today: comment.today, on: db) {
        case .added(let kept): return .added(anchor: "comment-" + SiteURL.id(try kept.requireID()))
        case .refused(let status, let reason): return .refused(status, reason)
        }
    }
}
