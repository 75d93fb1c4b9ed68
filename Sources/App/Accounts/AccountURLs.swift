import Foundation

/// The typed paths Accounts owns (see `RoutePattern`); its other routes are still spelled where
/// they are registered.
enum AccountPath: String, RoutePattern {
    /// A private calendar feed (served by Games): the file name is the secret token and `.ics`.
    case calendarFeed = "/calendar/:file"
}

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
    /// A private calendar feed: the token is the secret that opens it.
    static func calendarFeed(token: String) -> SiteURL { SiteURL(AccountPath.calendarFeed, token + ".ics") }
    static let settings = SiteURL("settings")
    static let profileSettings = SiteURL("settings", "profile")
    static let avatarSettings = SiteURL("settings", "avatar")
    static let privacySettings = SiteURL("settings", "privacy")
    static let passwordSettings = SiteURL("settings", "password")
    static let exportSettings = SiteURL("settings", "export")
    static let deleteAccountSettings = SiteURL("settings", "delete-account")
    /// The link in a confirmation e-mail: the token is worked out from the server key, the person
    /// and the address, so it stops working when the address changes.
    static func confirmEmail(user: UUID, token: String) -> SiteURL { SiteURL("email", "confirm", id(user), token) }
    /// Sends the confirmation e-mail again.
    static let resendConfirmation = SiteURL("settings", "email", "confirm")
    static let forgotPassword = SiteURL("password", "forgot")
    /// The link in a password-reset e-mail.
    static func resetPassword(token: String) -> SiteURL { SiteURL("password", "reset", token) }

    /// Only paths on this site: "//evil.example" and "https://…" would send people elsewhere.
    /// A same-site path to go to after signing in, or "/". Only visible ASCII is accepted: browsers drop
    /// tabs and line breaks from addresses, so "/<TAB>/evil.example" would become "//evil.example", another site.
    static func safeNext(_ raw: String?) -> String {
        guard let raw, raw.utf8.count <= 2_000, raw.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }),
            raw.hasPrefix("/"), !raw.hasPrefix("//"), !raw.contains("\\")
        else { return "/" }
        return raw
    }
}
