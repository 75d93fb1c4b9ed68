import Fluent
import Vapor

/// Confirming an e-mail address: the link from the confirmation e-mail, and sending it again.
struct EmailController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("email", "confirm", ":user", ":token", use: confirm)
        routes.post("settings", "email", "confirm", use: resend)
    }

    /// Opening the link is the confirmation: whoever can read the mailbox opened it. It needs no
    /// sign-in, since people often read mail on another device.
    func confirm(req: Request) async throws -> Response {
        guard let id = req.parameters.get("user", as: UUID.self), let token = req.parameters.get("token"),
            let user = try await User.find(id, on: req.db),
            RandomToken.constantTimeEquals(token, AccountMail.confirmationToken(user: id, email: user.email, secret: req.application.serverSecret))
        else {
            throw Abort(.notFound, reason: "This confirmation link is not valid: the address may have changed since it was sent. Sign in to send a new one.")
        }
        if user.emailConfirmedAt == nil {
            user.emailConfirmedAt = req.now
            try await user.update(on: req.db)
        }
        req.flash(.success, "Thank you: \(user.email) is confirmed. E-mails you choose in your notification settings will go there.")
        return req.redirect(to: req.currentUser == nil ? .login : .home)
    }

    struct ResendForm: Content {
        /// The page the button was on, to come back to.
        var next: String?
    }

    func resend(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(ResendForm.self)
        guard req.application.config.sendsMail else { throw Abort(.conflict, reason: "This server does not send e-mail.") }
        if user.emailConfirmedAt != nil {
            req.flash(.info, "\(user.email) is already confirmed.")
        } else {
            try await AccountMail.queueConfirmation(for: user, config: req.application.config, secret: req.application.serverSecret, on: req.db)
            req.flash(.success, "We sent a new link to \(user.email). It may take a minute to arrive; check your spam folder too.")
        }
        return req.redirect(to: SiteURL.safeNext(form.next))
    }
}
