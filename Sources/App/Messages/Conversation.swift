import Fluent
import Foundation

/// Where messages are written: a team's, a game's or a plan's conversation (one each, made when
/// it is first opened), or two people's direct messages. Who is in it is not stored but read from
/// the subject each time (`ConversationSeats`), so leaving a team leaves its conversation too.
final class Conversation: Model, @unchecked Sendable {
    static let schema = "conversations"

    enum Kind: String, Codable, Sendable, CaseIterable {
        case team, game, plan, direct

        var label: String {
            switch self {
            case .team: t("Team")
            case .game: t("Game")
            case .plan: t("Plan")
            case .direct: t("Direct")
            }
        }
    }

    @ID(key: .id) var id: UUID?
    @Enum(key: "kind") var kind: Kind
    /// The subject of a team, game or plan conversation; the row goes with it.
    @OptionalField(key: "team_id") var teamID: UUID?
    @OptionalField(key: "game_id") var gameID: UUID?
    @OptionalField(key: "plan_id") var planID: UUID?
    /// The two people of a direct conversation, the smaller id first, so a pair has one row.
    @OptionalField(key: "person_a") var personA: UUID?
    @OptionalField(key: "person_b") var personB: UUID?
    /// The newest message's time, for the inbox's order.
    @OptionalField(key: "last_message_at") var lastMessageAt: Date?
    @OptionalField(key: "created_at") var createdAt: Date?

    init() {}

    var subjectID: UUID? { teamID ?? gameID ?? planID }

    /// The other person of a direct conversation.
    func otherPerson(than viewer: UUID) -> UUID? {
        guard kind == .direct else { return nil }
        return personA == viewer ? personB : personA
    }
}

/// One message: text in the Markdown Learn uses (no HTML), optionally quoting an earlier one.
final class Message: Model, @unchecked Sendable {
    static let schema = "messages"

    @ID(key: .id) var id: UUID?
    @Parent(key: "conversation_id") var conversation: Conversation
    /// Goes with its author's account.
    @Parent(key: "author_id") var author: User
    @Field(key: "body") var body: String
    @OptionalField(key: "reply_to_id") var replyToID: UUID?
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "edited_at") var editedAt: Date?
    /// Hidden by a moderator after a report: shown to nobody but its author, as hidden.
    @OptionalField(key: "hidden_at") var hiddenAt: Date?
    /// The sending form's one-time key, so the same form sent twice makes one message.
    @OptionalField(key: "client_key") var clientKey: String?

    init() {}

    /// Long enough for "pitch moved to 19:00, bring both kits, …"; short enough to page quickly.
    static let maxBody = 2000
    static let maxBodyBytes = 8000
    /// How long the author may still edit or delete what they wrote.
    static let editWindow: TimeInterval = 15 * 60
    /// Messages one person may write in a minute, in all conversations together.
    static let perMinute = 20
    /// Messages a page shows at once; older ones are a link away.
    static let pageSize = 40
}

/// One person's state in one conversation: how far they have read, and whether it is muted.
/// Made when they first open it, or for everyone seated when a message is written.
final class ConversationMember: Model, @unchecked Sendable {
    static let schema = "conversation_members"

    @ID(key: .id) var id: UUID?
    @Parent(key: "conversation_id") var conversation: Conversation
    @Parent(key: "user_id") var user: User
    @Field(key: "last_read_at") var lastReadAt: Date
    @Field(key: "muted") var muted: Bool

    init() {}
}

/// Someone's report of a message, for the conversation's moderators and the site's admins. It
/// keeps a copy of what was reported, and who wrote it, so deleting the message (or its author's
/// account) does not take the evidence out of the admins' sight.
final class MessageReport: Model, @unchecked Sendable {
    static let schema = "message_reports"

    @ID(key: .id) var id: UUID?
    /// Nil once the message is gone.
    @OptionalParent(key: "message_id") var message: Message?
    @Parent(key: "reporter_id") var reporter: User
    @OptionalParent(key: "author_id") var author: User?
    @Field(key: "body") var body: String
    @Field(key: "conversation_kind") var conversationKind: String
    @Field(key: "reason") var reason: String
    @Field(key: "created_at") var createdAt: Date
    /// Set when a moderator hid the message or let it stand.
    @OptionalField(key: "resolved_at") var resolvedAt: Date?

    init() {}

    static let maxReason = 500
}
