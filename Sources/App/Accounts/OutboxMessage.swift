import Fluent
import Foundation

/// An e-mail waiting to go. It is written in the same transaction as what caused it (a reminder
/// sent, a password reset asked for), together with a `mail.send` job that hands it to the SMTP
/// server and then deletes it: the row holds a one-time link until then, and no longer.
final class OutboxMessage: Model, @unchecked Sendable {
    static let schema = "outbox"
    /// The job kind that sends a message (registered by the Notifications feature, which writes the
    /// words around it and the unsubscribe link).
    static let sendKind = "mail.send"

    @ID(key: .id) var id: UUID?
    /// Whose message it is: deleting the account deletes what was still waiting.
    @Parent(key: "user_id") var user: User
    /// The person the message names, if any: deleting their account deletes what still waits.
    @OptionalParent(key: "actor_id") var actor: User?
    /// The address at the time of writing: a confirmation goes to the address being confirmed.
    @Field(key: "to_address") var toAddress: String
    /// The notification topic, for the unsubscribe link; nil for messages about the account itself
    /// (a password reset), which cannot be turned off.
    @OptionalField(key: "topic") var topic: String?
    @Field(key: "subject") var subject: String
    /// Plain text; paragraphs separated by blank lines.
    @Field(key: "body") var body: String
    /// The page the message is about, as a path on this site, and the words on its button.
    @OptionalField(key: "link") var link: String?
    @OptionalField(key: "link_label") var linkLabel: String?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(user: UUID, actor: UUID? = nil, to: String, topic: String?, subject: String, body: String, link: String?, linkLabel: String?) {
        self.$user.id = user
        self.$actor.id = actor
        self.toAddress = to
        self.topic = topic
        self.subject = subject
        self.body = body
        self.link = link
        self.linkLabel = linkLabel
    }

    /// The same message again, with its id: how a message that could not be sent goes back.
    convenience init(copying other: OutboxMessage) {
        self.init(
            user: other.$user.id, actor: other.$actor.id, to: other.toAddress, topic: other.topic, subject: other.subject, body: other.body,
            link: other.link, linkLabel: other.linkLabel)
        id = other.id
        createdAt = other.createdAt
    }

    struct Payload: Codable, Sendable {
        let message: UUID
    }

    /// Writes the message and its sending job on `db`: the caller's transaction, when it has one.
    /// Due at once: `distantPast` rather than a clock reading, since whoever writes mail may not
    /// hold one (a silent mail server cannot hold up other jobs for long: see `MailSendJob`).
    func queue(on db: any Database) async throws {
        try await create(on: db)
        try await Job.enqueue(OutboxMessage.sendKind, payload: Payload(message: requireID()), at: .distantPast, key: "mail:\(requireID())", on: db)
    }
}
