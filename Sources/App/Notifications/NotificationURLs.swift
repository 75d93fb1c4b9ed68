import Foundation

extension SiteURL {
    static let notifications = SiteURL("notifications")
    static let notificationSettings = SiteURL("settings", "notifications")
    /// The link in every notification e-mail: stops that topic's e-mails without signing in; the
    /// token, made from the server key, is what proves it came from the e-mail.
    static func unsubscribe(user: UUID, topic: NotificationTopic, token: String) -> SiteURL {
        SiteURL("email", "unsubscribe", id(user), topic.rawValue, token)
    }
}
