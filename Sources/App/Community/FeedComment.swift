import Fluent
import Foundation

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
}
