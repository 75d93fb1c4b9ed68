import Foundation

extension SiteURL {
    static let login = SiteURL("login")
    /// The sign-in page that comes back to `next` afterwards.
    static func login(next: SiteURL) -> String { login.with([("next", next.path)]) }
    static func login(next: String) -> String { login.with([("next", next)]) }
    static let people = SiteURL("people")
    static let friends = SiteURL("friends")
    static func person(username: String) -> SiteURL { SiteURL("u", username) }
    static func avatar(username: String) -> SiteURL { SiteURL("u", username, "avatar") }
    static func followers(username: String) -> SiteURL { SiteURL("u", username, "followers") }
    static func following(username: String) -> SiteURL { SiteURL("u", username, "following") }
    static let settings = SiteURL("settings")
    static let profileSettings = SiteURL("settings", "profile")
    static let avatarSettings = SiteURL("settings", "avatar")
    static let privacySettings = SiteURL("settings", "privacy")
    static let passwordSettings = SiteURL("settings", "password")
    static let exportSettings = SiteURL("settings", "export")
    static let deleteAccountSettings = SiteURL("settings", "delete-account")
}
