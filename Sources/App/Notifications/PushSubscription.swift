import Fluent
import Foundation

/// A browser that gets a person's notifications by Web Push (RFC 8030): where to send them (the
/// push service's `endpoint`), the keys to encrypt them with (RFC 8291) and the topics chosen for
/// this browser. One row per endpoint: a browser that a second person subscribes from becomes
/// theirs. A push service that answers 404 or 410 ends the row.
final class PushSubscription: Model, @unchecked Sendable {
    static let schema = "push_subscriptions"
    /// The longest endpoint taken: those of the big push services are a few hundred characters.
    static let maxEndpoint = 1_024
    /// The most browsers one person keeps subscribed: the oldest goes when a new one comes.
    static let maxPerPerson = 10

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "endpoint") var endpoint: String
    /// The browser's public key (base64url of an uncompressed P-256 point) and its auth secret.
    @Field(key: "p256dh") var p256dh: String
    @Field(key: "auth") var auth: String
    /// The topics sent to this browser, comma-separated `NotificationTopic` values.
    @Field(key: "topics") var topics: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    /// When the push service last took a message for this browser.
    @OptionalField(key: "last_success_at") var lastSuccessAt: Date?

    init() {}

    init(user: UUID, endpoint: String, p256dh: String, auth: String, topics: Set<NotificationTopic>) {
        self.$user.id = user
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.topics = Self.store(topics)
    }

    var chosen: Set<NotificationTopic> { Set(topics.split(separator: ",").compactMap { NotificationTopic(rawValue: String($0)) }) }

    static func store(_ topics: Set<NotificationTopic>) -> String { topics.map(\.rawValue).sorted().joined(separator: ",") }
}
