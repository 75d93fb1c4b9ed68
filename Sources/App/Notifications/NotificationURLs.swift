import Foundation

/// Every path Notifications serves, spelled once (see `RoutePattern`): its controllers register
/// these cases and its links are made from them.
enum NotificationPath: String, RoutePattern {
    case notifications = "/notifications"
    case markRead = "/notifications/read"
    case notificationSettings = "/settings/notifications"
    case pushSubscribe = "/settings/notifications/push"
    case pushStop = "/settings/notifications/push/stop"
    case unsubscribe = "/email/unsubscribe/:user/:topic/:token"
}

extension SiteURL {
    static let notifications = SiteURL(NotificationPath.notifications)
    static let notificationSettings = SiteURL(NotificationPath.notificationSettings)
    static let pushSubscribe = SiteURL(NotificationPath.pushSubscribe)
    static let pushStop = SiteURL(NotificationPath.pushStop)
    /// The link in every notification e-mail: stops that topic's e-mails without signing in; the
    /// token, made from the server key, is what proves it came from the e-mail.
    static func unsubscribe(user: UUID, topic: NotificationTopic, token: String) -> SiteURL {
        SiteURL(NotificationPath.unsubscribe, id(user), topic.rawValue, token)
    }
}
