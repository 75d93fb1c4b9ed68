import Fluent
import Vapor

/// Confirming an e-mail address: the link from the confirmation e-mail, and sending it again.
struct EmailController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.confirmEmail, use: confirmPage).holdsSecret()
        routes.post(AccountPath.confirmEmail, use: confirm).holdsSecret().userInfo[CSRF.signedAddress] = true
        routes.post(AccountPath.resendConfirmation, use: resend)
    }

    struct ConfirmPage: Encodable {
        let layout: Layout
        let email: String
        let username: String
        let action: String
    }

    /// The person and the link's token, if the token is the one this server made for their
    /// current address.
    private func target(_ req: Request) async throws -> (user: User, token: String) {
        guard let id = req.parameters.get("user", as: UUID.self), let token = req.parameters.get("token"),
            let user = try await User.find(id, on: req.db),
            RandomToken.constantTimeEquals(token, AccountMail.confirmationToken(user: id, email: user.email, secret: req.application.serverSecret))
        else {
            throw Abort(.notFound, reason: t("This confirmation link is not valid: the address may have changed since it was sent. Sign in to send a new one."))
        }
        return (user, token)
    }

    /// Opening the link asks for a press of a button: mail scanners open links by themselves, and
    /// must not confirm an address for whoever typed it. No sign-in needed, since people often read
    /// mail on another device.
    func confirmPage(req: Request) async throws -> View {
        let (user, token) = try await target(req)
        return try await req.view.render(
            "accounts/confirm_email",
            ConfirmPage(
                layout: req.layout(title: t("Confirm your e-mail address"), hasForms: true), email: user.email, username: user.username,
                action: SiteURL.confirmEmail(user: user.requireID(), token: token).path))
    }

    func confirm(req: Request) async throws -> Response {
        let (user, _) = try await target(req)
        if user.emailConfirmedAt == nil {
            user.emailConfirmedAt = req.now
            try await user.update(on: req.db)
        }
        req.flash(.success, t("Thank you: {email} is confirmed. E-mails you choose in your notification settings will go there.", user.email))
        return req.redirect(to: req.currentUser == nil ? .login : .home)
    }

    struct ResendForm: Content {
        /// The page the button was on, to come back to.
        var next: String?
    }

    func resend(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(ResendForm.self)
        guard req.application.config.sendsMail else { throw Abort(.conflict, reason: t("This server does not send e-mail.")) }
        if user.emailConfirmedAt != nil {
            req.flash(.info, t("{email} is already confirmed.", user.shownEmail))
        } else if let sent = user.emailConfirmationSentAt, req.now.timeIntervalSince(sent) < AccountMail.confirmationInterval {
            let minutes = Int((AccountMail.confirmationInterval - req.now.timeIntervalSince(sent)) / 60) + 1
            req.flash(
                .info,
                tn(
                    "We sent a link to {email} a few minutes ago; it can take a while to arrive. You can ask for another in {count} minutes.",
                    "We sent a link to {email} a few minutes ago; it can take a while to arrive. You can ask for another in {count} minutes.",
                    minutes, user.shownEmail))
        } else {
            // Claimed under a lock on the person's row: parallel presses send one link.
            let userID = try user.requireID(), now = req.now, config = req.application.config, secret = req.application.serverSecret
            let queued = try await req.db.inTransaction { db -> Bool in
                try await db.lockForCount(User.schema, id: userID)
                guard let fresh = try await User.find(userID, on: db), fresh.emailConfirmedAt == nil,
                    fresh.emailConfirmationSentAt.map({ now.timeIntervalSince($0) >= AccountMail.confirmationInterval }) ?? true
                else { return false }
                try await AccountMail.queueConfirmation(for: fresh, now: now, config: config, secret: secret, on: db)
                return true
            }
            if queued { try await req.personChanged(userID) }
            req.flash(
                .success,
                queued
                    ? t("We sent a new link to {email}. It may take a minute to arrive; check your spam folder too.", user.shownEmail)
                    : tn(
                        "We sent a link to {email} a few minutes ago; it can take a while to arrive. You can ask for another in {count} minutes.",
                        "We sent a link to {email} a few minutes ago; it can take a while to arrive. You can ask for another in {count} minutes.",
                        Int(AccountMail.confirmationInterval / 60), user.shownEmail))
        }
        return req.redirect(to: SiteURL.safeNext(form.next))
    }
}
