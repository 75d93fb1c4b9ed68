import Fluent
import SQLKit
import Foundation
import Vapor

/// The e-mails about the account itself: confirming an address and resetting a password. They
/// cannot be turned off, and none is written when the server sends no mail.
enum AccountMail {
    /// The same person and address always give the same token, which only this server can make.
    static func confirmationToken(user: UUID, email: String, secret: ServerSecret) -> String {
        secret.token(for: "confirm-email", SiteURL.id(user), email)
    }

    /// One confirmation link per this long at most, however often "send it again" is pressed.
    static let confirmationInterval: TimeInterval = 600

    static func queueConfirmation(for user: User, now: Date, config: AppConfig, secret: ServerSecret, on db: any Database) async throws {
        guard config.sendsMail else { return }
        let id = try user.requireID()
        try await User.query(on: db).filter(\.$id == id).set(\.$emailConfirmationSentAt, to: now).update()
        user.emailConfirmationSentAt = now
        // A stand-in address (another account had the one typed) is never mailed; everything else
        // happens as for any address, so the account behaves alike whether or not it was taken.
        guard user.addressTaken == nil else { return }
        // In the account's language, as every e-mail to it is composed (`NotificationMail`).
        let message = Language.$current.withValue(user.language ?? .en) {
            OutboxMessage(
                user: id, to: user.email, topic: nil, subject: t("Confirm your e-mail address for Fieldhouse"),
                body: t("Please confirm that {email} is your address, so Fieldhouse can send you the reminders and news you choose.", user.email)
                    + "\n\n"
                    + t("If you did not make an account on Fieldhouse, ignore this e-mail: no news will be sent to this address unless someone confirms it."),
                link: SiteURL.confirmEmail(user: id, token: confirmationToken(user: id, email: user.email, secret: secret)).path,
                linkLabel: t("Confirm my address"))
        }
        try await message.queue(on: db)
    }

    /// Tells the owner of an address that someone tried to make an account with it (the sign-up
    /// page said nothing of it), in their language.
    /// At most one a day, and only to an address its owner confirmed: sign-ups cannot be used to
    /// flood an address with these.
    static func queueAddressTaken(to holder: User, now: Date, config: AppConfig, on db: any Database) async throws {
        guard config.sendsMail else { return }
        let holderID = try holder.requireID()
        let claimed = try await db.sql.raw(
            """
            UPDATE users SET address_notice_at = \(bind: now)
            WHERE id = \(bind: holderID) AND email_confirmed_at IS NOT NULL
              AND (address_notice_at IS NULL OR address_notice_at < \(bind: now.addingTimeInterval(-86_400)))
            RETURNING id
            """
        ).all()
        guard !claimed.isEmpty else { return }
        let message = Language.$current.withValue(holder.language ?? .en) {
            OutboxMessage(
                user: holderID, to: holder.email, topic: nil, subject: t("Someone tried to sign up with your address"),
                body: t(
                    "Someone tried to make a new Fieldhouse account with {email}, which your account already uses. If it was you, sign in instead (or reset your password from the sign-in page). If not, you need do nothing: the new account cannot use your address.",
                    holder.email),
                link: SiteURL.login.path, linkLabel: t("Sign in"))
        }
        try await message.queue(on: db)
    }

    /// Stores the hash of a fresh token and writes the e-mail with the token itself.
    static func queueReset(for user: User, now: Date, on db: any Database) async throws {
        let token = RandomToken.make()
        let id = try user.requireID()
        try await PasswordReset(user: id, tokenHash: RandomToken.hash(token), expiresAt: now.addingTimeInterval(PasswordReset.lifetime)).create(on: db)
        // The account's language, not that of whoever asked: anyone may ask for a reset.
        let message = Language.$current.withValue(user.language ?? .en) {
            OutboxMessage(
                user: id, to: user.email, topic: nil, subject: t("Reset your Fieldhouse password"),
                body: t("Someone (we hope you) asked to reset the password of the Fieldhouse account {username}.", user.username)
                    + "\n\n"
                    + t("The link works once, for one hour. If it was not you, ignore this e-mail: your password stays as it is."),
                link: SiteURL.resetPassword(token: token).path, linkLabel: t("Choose a new password"))
        }
        try await message.queue(on: db)
    }
}
