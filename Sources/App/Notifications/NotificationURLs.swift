import Foundation

extension SiteURL {
    static let notifications = SiteURL("notifications")
}
