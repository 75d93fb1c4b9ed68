import Foundation

/// Every path Accounts serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them. `calendarFeed` is served by Games.
enum AccountPath: String, RoutePattern {
    case signup = "/signup"
    case login = "/login"
    case logout = "/logout"
    case people = "/people"
    case friends = "/friends"
    case approveFriend = "/friends/requests/:username/approve"
    case declineFriend = "/friends/requests/:username/decline"
    case person = "/u/:username"
    case avatar = "/u/:username/avatar"
    case followers = "/u/:username/followers"
    case following = "/u/:username/following"
    case follow = "/u/:username/follow"
    case unfollow = "/u/:username/unfollow"
    /// Direct messages with the person, served by Messages.
    case directConversation = "/u/:username/message"
    case block = "/u/:username/block"
    case unblock = "/u/:username/unblock"
    case language = "/language/:code"
    /// A private calendar feed (served by Games): the file name is the secret token and `.ics`.
    case calendarFeed = "/calendar/:file"
    case settings = "/settings"
    case profileSettings = "/settings/profile"
    case avatarSettings = "/settings/avatar"
    case removeAvatar = "/settings/avatar/remove"
    case privacySettings = "/settings/privacy"
    case passwordSettings = "/settings/password"
    case exportSettings = "/settings/export"
    case exportDownload = "/settings/export/download"
    case deleteAccountSettings = "/settings/delete-account"
    case confirmEmail = "/email/confirm/:user/:token"
    case resendConfirmation = "/settings/email/confirm"
    case forgotPassword = "/password/forgot"
    case resetPassword = "/password/reset/:token"
}

extension SiteURL {
    static let login = SiteURL(AccountPath.login)
    /// The sign-in page that comes back to `next` afterwards.
    static func login(next: SiteURL) -> String { login.with([("next", next.path)]) }
    static func login(next: String) -> String { login.with([("next", next)]) }
    /// The sign-up page that comes back to `next` once the account is made (an invitation's page).
    static func signup(next: SiteURL) -> String { SiteURL(AccountPath.signup).with([("next", next.path)]) }
    static let people = SiteURL(AccountPath.people)
    static let friends = SiteURL(AccountPath.friends)
    static func directConversation(username: String) -> SiteURL { SiteURL(AccountPath.directConversation, username) }
    static func block(username: String) -> SiteURL { SiteURL(AccountPath.block, username) }
    static func unblock(username: String) -> SiteURL { SiteURL(AccountPath.unblock, username) }
    static func person(username: String) -> SiteURL { SiteURL(AccountPath.person, username) }
    static func avatar(username: String) -> SiteURL { SiteURL(AccountPath.avatar, username) }
    static func followers(username: String) -> SiteURL { SiteURL(AccountPath.followers, username) }
    static func following(username: String) -> SiteURL { SiteURL(AccountPath.following, username) }
    /// A private calendar feed: the token is the secret that opens it.
    static func calendarFeed(token: String) -> SiteURL { SiteURL(AccountPath.calendarFeed, token + ".ics") }
    static let settings = SiteURL(AccountPath.settings)
    static let profileSettings = SiteURL(AccountPath.profileSettings)
    static let avatarSettings = SiteURL(AccountPath.avatarSettings)
    static let privacySettings = SiteURL(AccountPath.privacySettings)
    static let passwordSettings = SiteURL(AccountPath.passwordSettings)
    static let exportSettings = SiteURL(AccountPath.exportSettings)
    static let deleteAccountSettings = SiteURL(AccountPath.deleteAccountSettings)
    /// The link in a confirmation e-mail: the token is worked out from the server key, the person
    /// and the address, so it stops working when the address changes.
    static func confirmEmail(user: UUID, token: String) -> SiteURL { SiteURL(AccountPath.confirmEmail, id(user), token) }
    /// Sends the confirmation e-mail again.
    static let resendConfirmation = SiteURL(AccountPath.resendConfirmation)
    static let forgotPassword = SiteURL(AccountPath.forgotPassword)
    /// The link in a password-reset e-mail.
    static func resetPassword(token: String) -> SiteURL { SiteURL(AccountPath.resetPassword, token) }

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
