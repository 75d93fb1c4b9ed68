import Foundation

extension SiteURL {
    static let notifications = SiteURL("notifications")
    static let notificationSettings = SiteURL("settings", "notifications")
}
