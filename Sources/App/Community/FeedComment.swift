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
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    static let maxBody = 500
    /// Comments one person may write in an hour: plenty for a conversation, too few to bury one.
    static let perHour = 30
    /// What takes comments.
    static let subjectKinds: Set<String> = ["workout", "plan", "badge"]
}
