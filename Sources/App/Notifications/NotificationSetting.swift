import Fluent
import Foundation

/// A person's choice for one topic. Only choices that differ from the default (everything on) are
/// stored; no row means on.
final class NotificationSetting: Model, @unchecked Sendable {
    static let schema = "notification_settings"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Enum(key: "topic") var topic: NotificationTopic
    @Field(key: "in_app") var inApp: Bool
    /// For when Fieldhouse sends e-mail: kept now so a choice made today holds then.
    @Field(key: "email") var email: Bool

    init() {}

    init(user: UUID, topic: NotificationTopic, inApp: Bool, email: Bool) {
        self.$user.id = user
        self.topic = topic
        self.inApp = inApp
        self.email = email
    }
}
