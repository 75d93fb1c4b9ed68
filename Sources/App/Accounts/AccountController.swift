import FieldhouseKit
import Fluent
import Vapor

/// Signing up, signing in and signing out.
struct AccountController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.signup, use: signupPage)
        routes.post(AccountPath.signup, use: signup)
        routes.get(AccountPath.login, use: loginPage)
        routes.post(AccountPath.login, use: login)
        routes.post(AccountPath.logout, use: logout)
    }

    // MARK: Sign up

    struct SignupForm: Content {
        var username: String?
        var email: String?
        var password: String?
        var display_name: String?
        var birth_date: String?
        /// The browser's zone (app.js picks it in the select); UTC when the form has none.
        var time_zone: String?
        /// Where to go once signed up (an invitation's page), a path on this site.
        var next: String?
    }

    struct SignupPage: Encodable {
        let layout: Layout
        let form: SignupForm
        let errors: FieldErrors
        let today: String
        let timeZones: [String]
    }

    func signupPage(req: Request) async throws -> Response {
        if req.currentUser != nil { return req.redirect(to: .home) }
        var form = SignupForm()
        form.next = req.query[String.self, at: "next"].map(SiteURL.safeNext)
        return try await renderSignup(req, form: form, errors: [:], status: .ok)
    }

    func signup(req: Request) async throws -> Response {
        var form = try req.content.decode(SignupForm.self)
        form.password = form.password ?? ""
        var errors: FieldErrors = [:]
        let username = AccountRules.username(form.username)
        let email = AccountRules.email(form.email)
        let displayName = AccountRules.displayName(form.display_name)
        let birthDate = AccountRules.birthDate(form.birth_date, today: req.clock.today)
        errors["username"] = username.error
        errors["email"] = email.error
        errors["password"] = AccountRules.password(form.password)
        errors["display_name"] = displayName.error
        errors["birth_date"] = birthDate.error
        let zone = (form.time_zone ?? "").trimmingCharacters(in: .whitespaces)
        if !zone.isEmpty, !Format.timeZoneIdentifiers.contains(zone) { errors["time_zone"] = t("Choose your time zone from the list") }
        if errors["username"] == nil, try await User.query(on: req.db).filter(\.$username == username.value).first() != nil {
            errors["username"] = t("That username is taken. Try another.")
        }
        // Whether an address has an account is nobody's business: the form answers the same, the
        // new account gets a stand-in address, and the address's owner hears of it by e-mail.
        let holder = errors["email"] == nil ? try await User.query(on: req.db).filter(\.$email == email.value).first() : nil
        guard errors.isEmpty, let password = form.password, let birth = birthDate.value else {
            form.password = nil
            return try await renderSignup(req, form: form, errors: errors, status: .unprocessableEntity)
        }

        let hash = try await req.password.async.hash(password)
        let user = User(
            username: username.value, email: holder == nil ? email.value : "taken-\(RandomToken.make().lowercased())@address.invalid", passwordHash: hash,
            displayName: displayName.value, birthDate: birth.description
        )
        if holder != nil { user.addressTaken = email.value }
        user.visibility = AccountRules.defaultVisibility(birthDate: birth, today: req.clock.today)
        if !zone.isEmpty { user.timeZone = zone }
        // Notifications and e-mails have no browser to ask: they keep the language the account was made in.
        user.languageCode = req.language.rawValue
        do {
            try await req.db.inTransaction { db in
                try await user.create(on: db)
                if let holder { try await AccountMail.queueAddressTaken(to: holder, now: req.now, config: req.application.config, on: db) }
                try await AccountMail.queueConfirmation(for: user, now: req.now, config: req.application.config, secret: req.application.serverSecret, on: db)
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Someone took the name between our check and the insert.
            form.password = nil
            errors["username"] = t("That username is taken. Try another.")
            return try await renderSignup(req, form: form, errors: errors, status: .unprocessableEntity)
        }
        // Someone who came with an invitation goes back to it; everyone else starts with their profile.
        let next = (form.next ?? "").isEmpty ? SiteURL.profileSettings.path : SiteURL.safeNext(form.next)
        let response = req.redirect(to: next)
        try await req.signIn(user, on: response)
        req.flash(
            .success,
            t("Welcome to Fieldhouse, {name}! Tell people a little about yourself.", user.displayName)
                + (req.application.config.sendsMail ? " " + t("We sent a link to {email}: open it to confirm your address.", user.shownEmail) : ""))
        return response
    }

    private func renderSignup(_ req: Request, form: SignupForm, errors: FieldErrors, status: HTTPStatus) async throws -> Response {
        var form = form
        if (form.time_zone ?? "").isEmpty { form.time_zone = "UTC" }
        let page = SignupPage(
            layout: req.layout(title: t("Create your account"), hasForms: true),
            form: form, errors: errors, today: req.clock.today.description, timeZones: Format.timeZoneIdentifiers
        )
        return try await req.view.render("accounts/signup", page).encodeResponse(status: status, for: req)
    }

    // MARK: Sign in

    struct LoginForm: Content {
        var login: String?
        var password: String?
        var next: String?
    }

    struct LoginPage: Encodable {
        let layout: Layout
        let login: String
        let next: String
        let error: String?
    }

    func loginPage(req: Request) async throws -> Response {
        let next = SiteURL.safeNext(req.query[String.self, at: "next"])
        if req.currentUser != nil { return req.redirect(to: next) }
        return try await renderLogin(req, login: "", next: next, error: nil, status: .ok)
    }

    func login(req: Request) async throws -> Response {
        let form = try req.content.decode(LoginForm.self)
        let next = SiteURL.safeNext(form.next)
        let login = (form.login ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let password = form.password ?? ""
        guard !login.isEmpty, !password.isEmpty else {
            return try await renderLogin(
                req, login: login, next: next, error: t("Enter your username or email and your password."), status: .unprocessableEntity)
        }

        // By username or address; an account made with an address another account had signs in
        // with that address too (its own password tells them apart), so signing in says nothing of
        // whether an address was taken.
        let candidates = try await User.query(on: req.db)
            .group(.or) { $0.filter(\.$username == login).filter(\.$email == login).filter(\.$addressTaken == login) }
            .sort(\.$createdAt).limit(4).all()
        let named = candidates.first { $0.username == login || $0.email == login } ?? candidates.first
        let limiter = LoginLimiter(db: req.db, now: req.now)
        let keys = LoginLimiter.keys(login: named?.username ?? login, address: req.clientAddress)
        if let until = try await limiter.retryAfter(keys: keys) {
            let wait = limiter.waitMessage(until: until)
            let response = try await renderLogin(req, login: login, next: next, error: wait.text, status: .tooManyRequests)
            response.headers.replaceOrAdd(name: .retryAfter, value: String(wait.seconds))
            return response
        }

        // Unknown accounts are checked against a dummy hash so both cases take the same time.
        var matched: User?
        for candidate in candidates.isEmpty ? [nil] : candidates.map(Optional.some) {
            let matches = try await req.password.async.verify(password, created: candidate?.passwordHash ?? req.application.dummyPasswordHash)
            if matches, matched == nil { matched = candidate }
        }
        guard let user = matched else {
            try await limiter.recordFailure(keys: keys)
            return try await renderLogin(req, login: login, next: next, error: t("That username or email and password do not match."), status: .unauthorized)
        }
        try await limiter.recordSuccess(login: user.username, address: req.clientAddress)
        let response = req.redirect(to: next)
        try await req.signIn(user, on: response)
        return response
    }

    func logout(req: Request) async throws -> Response {
        let response = req.redirect(to: .home)
        try await req.signOut(on: response)
        // The recorder's page is kept for offline use (Public/sw.js) with the person's name in it:
        // it goes with the session. Storage stays: a recording not yet sent must not be lost.
        response.headers.replaceOrAdd(name: "Clear-Site-Data", value: "\"cache\"")
        req.flash(.info, t("You are signed out."))
        return response
    }

    private func renderLogin(_ req: Request, login: String, next: String, error: String?, status: HTTPStatus) async throws -> Response {
        let page = LoginPage(layout: req.layout(title: t("Sign in"), hasForms: true), login: login, next: next, error: error)
        return try await req.view.render("accounts/login", page).encodeResponse(status: status, for: req)
    }
}

extension Application {
    private struct DummyHashKey: StorageKey { typealias Value = String }

    /// A hash of nothing anyone knows, at the configured cost, made once by `configure`.
    var dummyPasswordHash: String { storage[DummyHashKey.self] ?? "" }

    func makeDummyPasswordHash() throws {
        storage[DummyHashKey.self] = try Bcrypt.hash(RandomToken.make(), cost: config.passwordCost)
    }
}
