import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// The last e-mail digest of unread messages a person was sent: when, and up to which message
/// it told them of. One row per person.
final class MessageDigest: Model, @unchecked Sendable {
    static let schema = "message_digests"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "sent_at") var sentAt: Date
    /// Messages up to this time were in a digest already: only later ones start the next.
    @Field(key: "covered_to") var coveredTo: Date

    init() {}
}

/// `messages.digest`: one e-mail listing what a person has not read, never one mail per message.
///
/// It goes to people whose e-mail choice for Messages is on (the default) and whose address is
/// confirmed, once messages they have not read have waited `delay` (time to read them on the site
/// first), at most every `gap`, and only when something came since the last digest. Unread is
/// counted as the header counts it: seated, not muted, not hidden, not from someone they blocked.
enum MessageDigestJob {
    static let delay: TimeInterval = 30 * 60
    static let gap: TimeInterval = 6 * 3600
    /// Digests written in one run; the rest wait for the next run, five minutes on.
    static let batch = 200
    /// Conversations named in one digest; the rest are counted.
    static let listed = 8

    static let kind = JobKind("messages.digest", every: 300) { run in
        for person in try await due(now: run.now, on: run.db) {
            try await send(to: person.user_id, newest: person.newest, now: run.now, app: run.app, on: run.db)
        }
    }

    struct Due: Decodable {
        let user_id: UUID
        let newest: Date
    }

    /// People owed a digest now, with the newest unread message it covers.
    static func due(now: Date, on db: any Database) async throws -> [Due] {
        try await db.sql.raw(
            """
            SELECT cm.user_id, MAX(m.created_at) AS newest
            FROM conversation_members cm
              JOIN conversations c ON c.id = cm.conversation_id
              JOIN messages m ON m.conversation_id = cm.conversation_id AND m.created_at > cm.last_read_at
              JOIN users u ON u.id = cm.user_id
              LEFT JOIN message_digests d ON d.user_id = cm.user_id
            WHERE cm.muted = \(bind: false) AND m.author_id <> cm.user_id AND m.hidden_at IS NULL
              AND u.email_confirmed_at IS NOT NULL
              AND (d.id IS NULL OR (m.created_at > d.covered_to AND d.sent_at <= \(bind: now.addingTimeInterval(-gap))))
              AND NOT EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = cm.user_id
                                AND s.topic = \(bind: NotificationTopic.messages.rawValue) AND s.email = \(bind: false))
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = cm.user_id AND b.blocked_id = m.author_id)
              AND \(ConversationSeats.seated("cm.user_id"))
            GROUP BY cm.user_id
            HAVING MIN(m.created_at) <= \(bind: now.addingTimeInterval(-delay))
            LIMIT \(bind: batch)
            """
        ).all(decoding: Due.self)
    }

    struct Unread: Decodable {
        let conversation_id: UUID
        let unread: Int
    }

    /// Writes the person's digest and its e-mail in the job's transaction: a run that fails sends
    /// nothing and marks nothing.
    static func send(to userID: UUID, newest: Date, now: Date, app: Application, on db: any Database) async throws {
        guard let user = try await User.find(userID, on: db) else { return }
        let unread = try await db.sql.raw(
            """
            SELECT c.id AS conversation_id, COUNT(*) AS unread
            FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id
              JOIN messages m ON m.conversation_id = c.id AND m.created_at > cm.last_read_at
            WHERE cm.user_id = \(bind: userID) AND cm.muted = \(bind: false) AND m.author_id <> \(bind: userID) AND m.hidden_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = \(bind: userID) AND b.blocked_id = m.author_id)
              AND \(ConversationSeats.seated("\(bind: userID)"))
            GROUP BY c.id ORDER BY MAX(m.created_at) DESC
            """
        ).all(decoding: Unread.self)
        guard !unread.isEmpty else { return }
        let today = LocalTime.utcDay(of: now)
        var lines: [(title: String, count: Int, latest: Message?)] = []
        for entry in unread.prefix(listed) {
            guard let conversation = try await Conversation.find(entry.conversation_id, on: db),
                let access = try? await ConversationAccess.of(conversation, viewer: user, today: today, on: db)
            else { continue }
            lines.append((access.title, entry.unread, try await latest(in: entry.conversation_id, for: userID, on: db)))
        }
        let relations = try await Relations.load(viewer: user, people: lines.compactMap { $0.latest?.$author.id }, today: today, on: db)
        let total = unread.map(\.unread).reduce(0, +)
        let (subject, body, label) = user.reader.write {
            let paragraphs = lines.map { line in
                let count = tn("{title}: {count} unread message.", "{title}: {count} unread messages.", line.count, line.title, line.count)
                guard let latest = line.latest else { return count }
                let author = PersonAccess.listedName(latest.author, relations.relation(to: latest.author)) ?? PersonAccess.childOnAList
                return count + "\n" + t("{name}: {message}", author, Format.excerpt(latest.body))
            }
            let more = unread.count - lines.count
            let rest = more > 0 ? [tn("And {count} more conversation.", "And {count} more conversations.", more, more)] : []
            return (
                tn("{count} unread message on Fieldhouse", "{count} unread messages on Fieldhouse", total, total),
                (paragraphs + rest).joined(separator: "\n\n"), t("Open your messages")
            )
        }
        try await OutboxMessage(
            user: userID, to: user.email, topic: NotificationTopic.messages.rawValue, subject: subject, body: body, link: SiteURL.inbox.path,
            linkLabel: label
        ).queue(on: db)
        try await mark(userID, newest: newest, now: now, on: db)
    }

    /// The newest message the person has not read there, from someone they did not block.
    private static func latest(in conversation: UUID, for userID: UUID, on db: any Database) async throws -> Message? {
        let blocked = Array(try await Block.blockedIDs(by: userID, on: db))
        var query = Message.query(on: db).filter(\.$conversation.$id == conversation).filter(\.$author.$id != userID).filter(\.$hiddenAt == nil)
        if !blocked.isEmpty { query = query.filter(\.$author.$id !~ blocked) }
        return try await query.sort(\.$createdAt, .descending).with(\.$author).first()
    }

    /// The newest time as read back is rounded (to the microsecond), so the mark lies a
    /// millisecond past it: the message it covers never counts as new again.
    private static func mark(_ userID: UUID, newest: Date, now: Date, on db: any Database) async throws {
        let digest = try await MessageDigest.query(on: db).filter(\.$user.$id == userID).first() ?? MessageDigest()
        digest.$user.id = userID
        digest.sentAt = now
        let covered = newest.addingTimeInterval(0.001)
        if digest.id == nil || digest.coveredTo < covered { digest.coveredTo = covered }
        try await digest.save(on: db)
    }
}
