import Fluent
import SQLKit
import Vapor

/// "Forgot your password?": a one-time link by e-mail, valid for an hour.
struct PasswordResetController: RouteCollection {
    /// At most this many unexpired links per account, so nobody can fill a mailbox by asking.
    static let maxOpenLinks = 3

    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.forgotPassword, use: forgotPage)
        routes.post(AccountPath.forgotPassword, use: forgot)
        routes.get(AccountPath.resetPassword, use: resetPage).holdsSecret()
        routes.post(AccountPath.resetPassword, use: reset).holdsSecret()
    }

    struct ForgotPage: Encodable {
        let layout: Layout
        let sendsMail: Bool
        let email: String
        let error: String?
        /// Set once the form was sent: the same words whether or not an account uses the address.
        let sentTo: String?
    }

    func forgotPage(req: Request) async throws -> Response {
        try await renderForgot(req, email: "", error: nil, sentTo: nil, status: .ok)
    }

    struct ForgotForm: Content {
        var email: String?
    }

    func forgot(req: Request) async throws -> Response {
        guard req.application.config.sendsMail else { return try await renderForgot(req, email: "", error: nil, sentTo: nil, status: .conflict) }
        let email = AccountRules.email(try req.content.decode(ForgotForm.self).email)
        if let error = email.error {
            return try await renderForgot(req, email: email.value, error: error, sentTo: nil, status: .unprocessableEntity)
        }
        let now = req.now
        try await req.db.inTransaction { db in
            guard let user = try await User.query(on: db).filter(\.$email == email.value).first() else { return }
            try await db.lockForCount(User.schema, id: user.requireID())
            let open = try await PasswordReset.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$usedAt == nil)
                .filter(\.$expiresAt > now).count()
            guard open < Self.maxOpenLinks else { return }
            try await AccountMail.queueReset(for: user, now: now, on: db)
        }
        // The answer never tells whether an account uses the address.
        return try await renderForgot(req, email: "", error: nil, sentTo: email.value, status: .ok)
    }

    private func renderForgot(_ req: Request, email: String, error: String?, sentTo: String?, status: HTTPStatus) async throws -> Response {
        let page = ForgotPage(
            layout: req.layout(title: t("Forgot your password?"), hasForms: true), sendsMail: req.application.config.sendsMail,
            email: email, error: error, sentTo: sentTo)
        return try await req.view.render("accounts/forgot_password", page).encodeResponse(status: status, for: req)
    }

    struct ResetPage: Encodable {
        let layout: Layout
        let action: String
        let username: String
        let errors: FieldErrors
    }

    /// The link's reset, if it is unused and in time.
    private func openReset(_ req: Request) async throws -> (reset: PasswordReset, user: User, token: String) {
        guard let token = req.parameters.get("token"), token.utf8.count == 43,
            let reset = try await PasswordReset.query(on: req.db).filter(\.$tokenHash == RandomToken.hash(token)).with(\.$user).first(),
            reset.usedAt == nil, reset.expiresAt > req.now
        else {
            throw Abort(.gone, reason: t("This link has expired or has already been used. Ask for a new one from the sign-in page."))
        }
        return (reset, reset.user, token)
    }

    func resetPage(req: Request) async throws -> Response {
        let link = try await openReset(req)
        return try await renderReset(req, user: link.user, token: link.token, errors: [:], status: .ok)
    }

    struct ResetForm: Content {
        var new_password: String?
        var confirm_password: String?
    }

    func reset(req: Request) async throws -> Response {
        let (reset, user, token) = try await openReset(req)
        let form = try req.content.decode(ResetForm.self)
        var errors: FieldErrors = [:]
        errors["new_password"] = AccountRules.password(form.new_password)
        if errors["new_password"] == nil, form.new_password != form.confirm_password {
            errors["confirm_password"] = t("The two passwords do not match")
        }
        guard errors.isEmpty, let password = form.new_password else {
            return try await renderReset(req, user: user, token: token, errors: errors, status: .unprocessableEntity)
        }
        let hash = try await req.password.async.hash(password)
        let now = req.now
        let used = try await req.db.inTransaction { db -> Bool in
            // Two tabs sending the form at once: only the first uses the link.
            let taken = try await db.sql.update(PasswordReset.schema).set("used_at", to: now)
                .where("id", .equal, reset.requireID()).where("used_at", .is, SQLLiteral.null).returning("id").all()
            guard !taken.isEmpty else { return false }
            user.passwordHash = hash
            // Opening the link proved the mailbox is theirs.
            if user.emailConfirmedAt == nil { user.emailConfirmedAt = now }
            try await user.update(on: db)
            try await UserSession.query(on: db).filter(\.$user.$id == user.requireID()).delete()
            try await PasswordReset.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$usedAt == nil).delete()
            return true
        }
        guard used else { throw Abort(.gone, reason: t("This link has already been used. Ask for a new one from the sign-in page.")) }
        // Once the sessions' end is committed, no process keeps one.
        try await req.personChanged(user.requireID())
        req.flash(.success, t("Your password is changed, and every device that was signed in is signed out. Sign in with the new one."))
        return req.redirect(to: .login)
    }

    private func renderReset(_ req: Request, user: User, token: String, errors: FieldErrors, status: HTTPStatus) async throws -> Response {
        let page = ResetPage(
            layout: req.layout(title: t("Choose a new password"), hasForms: true), action: SiteURL.resetPassword(token: token).path, username: user.username,
            errors: errors)
        return try await req.view.render("accounts/reset_password", page).encodeResponse(status: status, for: req)
    }
}
