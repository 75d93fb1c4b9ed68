import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `messages.push`: a new message to one browser of someone in its conversation, for people whose
/// browser chose the Messages topic (Settings → Notifications).
///
/// Queued with the message, in its transaction; everything is asked again when it is sent, since
/// a push cannot be taken back: the recipient must still have a seat, must not have muted the
/// conversation, blocked the author or read the message meanwhile, and the message must still be
/// there and not hidden. The push names the author as the recipient may know them, as the page does.
enum MessagePushJob {
    static let name = "messages.push"

    struct Payload: Codable, Sendable {
        let message: UUID
        let subscription: UUID
    }

    /// One job per browser of each seated person other than the author who has not muted the
    /// conversation nor blocked the author: one query for the browsers and one insert, however many seats.
    static func queue(_ message: Message, seated: [UUID], on db: any Database) async throws {
        let id = try message.requireID()
        let others = seated.filter { $0 != message.$author.id }
        guard !others.isEmpty else { return }
        struct Row: Decodable {
            let id: UUID
            let topics: String
        }
        let browsers = try await db.sql.raw(
            """
            SELECT s.id, s.topics FROM push_subscriptions s
            WHERE s.user_id IN (\(binds: others))
              AND NOT EXISTS (SELECT 1 FROM conversation_members cm WHERE cm.conversation_id = \(bind: message.$conversation.id)
                                AND cm.user_id = s.user_id AND cm.muted = \(bind: true))
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = s.user_id AND b.blocked_id = \(bind: message.$author.id))
            """
        ).all(decoding: Row.self)
        let topic = Substring(NotificationTopic.messages.rawValue)
        let jobs = browsers.filter { $0.topics.split(separator: ",").contains(topic) }.map { browser in
            (payload: Payload(message: id, subscription: browser.id), key: "push:\(id):\(browser.id)")
        }
        try await Job.enqueue(name, jobs, at: .distantPast, on: db)
    }

    static let kind = JobKind(name, transactional: false) { run in
        let payload = try run.payload(as: Payload.self)
        guard let subscription = try await PushSubscription.query(on: run.db).filter(\.$id == payload.subscription).with(\.$user).first(),
            let message = try await Message.query(on: run.db).filter(\.$id == payload.message).with(\.$conversation).with(\.$author).first(),
            message.hiddenAt == nil
        else { return }
        // The browser may have dropped Messages since the push was queued.
        guard subscription.chosen.contains(.messages) else { return }
        let recipient = subscription.user
        let today = LocalTime.utcDay(of: run.now)
        guard let access = try? await ConversationAccess.of(message.conversation, viewer: recipient, today: today, on: run.db),
            try await stillUnread(message, for: recipient.requireID(), on: run.db)
        else { return }
        let relations = try await Relations.load(viewer: recipient, people: [message.$author.id], today: today, on: run.db)
        let author = PersonAccess.listedName(message.author, relations.relation(to: message.author)) ?? PersonAccess.childOnAList
        let url = run.app.config.baseURL + SiteURL.conversation(access.id).fragment("m-" + SiteURL.id(payload.message))
        let push = recipient.reader.write {
            PushSendJob.Message(title: access.title, body: PushSendJob.excerpt(t("{name}: {message}", author, message.body)), url: url)
        }
        try await PushSendJob.deliver(push, to: subscription, urgent: false, run: run)
    }

    /// Not muted, the author not blocked, and the message after the recipient's read mark.
    private static func stillUnread(_ message: Message, for user: UUID, on db: any Database) async throws -> Bool {
        let row = try await db.sql.raw(
            """
            SELECT 1 AS unread FROM messages m
            WHERE m.id = \(bind: message.requireID())
              AND NOT EXISTS (SELECT 1 FROM conversation_members cm WHERE cm.conversation_id = m.conversation_id AND cm.user_id = \(bind: user)
                                AND (cm.muted = \(bind: true) OR cm.last_read_at >= m.created_at))
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = \(bind: user) AND b.blocked_id = m.author_id)
            """
        ).first()
        return row != nil
    }
}
