import Fluent
import Foundation
import Vapor

/// A comment under a workout, a plan or a badge in the feed (`FeedSubject`), as text. Gone with
/// its author's or the subject owner's account; a subject that goes leaves its comments unseen
/// (nobody may open the subject) until they go with its owner.
final class FeedComment: Model, @unchecked Sendable {
    static let schema = "feed_comments"

    @ID(key: .id) var id: UUID?
    /// "workout:<id>", "plan:<id>", "badge:<id>".
    @Field(key: "subject") var subject: String
    @Parent(key: "author_id") var author: User
    /// Whose workout, plan or badge it is: told of comments, and may remove them.
    @Parent(key: "owner_id") var owner: User
    @Field(key: "body") var body: String
    /// Set from the request's clock, which the hourly limit is counted on.
    @OptionalField(key: "created_at") var createdAt: Date?

    init() {}

    static let maxBody = 500
    /// Comments one person may write in an hour: plenty for a conversation, too few to bury one.
    static let perHour = 30
    /// What takes comments.
    static let subjectKinds: Set<String> = ["workout", "plan", "badge"]
}

extension FeedComment {
    /// One unread note per entry, rewritten as comments come in.
    static func tellOwner(_ subject: FeedSubject, author: User, today: CalendarDate, on db: any Database) async throws {
        let ownerID = try subject.owner.requireID(), authorID = try author.requireID()
        let known = try await Notification.split([ownerID], knowing: author, today: today, on: db).known.contains(ownerID)
        let others = Set(
            try await FeedComment.query(on: db).filter(\.$subject == subject.key).filter(\.$author.$id != ownerID).all().map { $0.$author.id }
        ).subtracting([authorID]).count
        // A function, called where the text is used: `Notification.send` reads it in its recipient's language.
        func text() -> String {
            let name = known ? author.displayName : t("Someone")
            return others == 0
                ? t("{name} commented on {title}", name, subject.title)
                : tn("{name} and {count} other commented on {title}", "{name} and {count} others commented on {title}", others, name, subject.title)
        }
        let link = SiteURL.feedComments(on: subject.key)
        if let unread = try await Notification.query(on: db).filter(\.$recipient.$id == ownerID).filter(\.$kind == Notification.Kind.comment.rawValue)
            .filter(\.$link == link).filter(\.$read == false).first()
        {
            unread.text = try await Notification.text(for: ownerID, on: db) { text() }
            unread.$actor.id = known ? authorID : nil
            try await unread.update(on: db)
        } else {
            try await Notification.send(to: [ownerID], from: known ? authorID : nil, kind: .comment, text: text(), link: link, on: db)
        }
    }

    enum Added {
        case added(FeedComment)
        case refused(HTTPStatus, String)
    }

    /// Writes `body` under `subject` (which `author` may see) if the rules allow: a child's entry
    /// takes comments only from people they know; at most `perHour` an hour (counted with the
    /// author's row locked, so parallel comments cannot all slip under it); the owner hears.
    static func add(_ body: String, under subject: FeedSubject, by author: User, now: Date, today: CalendarDate, on db: any Database) async throws -> Added {
        let userID = try author.requireID(), ownerID = try subject.owner.requireID()
        if ownerID != userID, try await PersonAccess.reach(subject.owner, from: author, today: today, on: db) != .allowed {
            return .refused(.forbidden, t("{name} only hears from people they know.", subject.owner.displayName))
        }
        if body.isEmpty { return .refused(.unprocessableEntity, t("Write something first")) }
        if body.count > maxBody {
            return .refused(.unprocessableEntity, t("Keep a comment to {max} characters (it has {length})", maxBody, body.count))
        }
        let comment = FeedComment()
        comment.createdAt = now
        comment.subject = subject.key
        comment.$author.id = userID
        comment.$owner.id = ownerID
        comment.body = body
        let written = try await db.inTransaction { db -> Bool in
            try await db.lockForCount(User.schema, id: userID)
            let lastHour = try await FeedComment.query(on: db).filter(\.$author.$id == userID).filter(\.$createdAt >= now.addingTimeInterval(-3600)).count()
            guard lastHour < perHour else { return false }
            try await comment.create(on: db)
            if ownerID != userID { try await tellOwner(subject, author: author, today: today, on: db) }
            return true
        }
        guard written else {
            return .refused(
                .tooManyRequests,
                tn(
                    "That's {count} comment in the last hour: wait a little before the next",
                    "That's {count} comments in the last hour: wait a little before the next", perHour))
        }
        return .added(comment)
    }
}
