import Fluent
import SQLKit
import Vapor

/// `/settings/delete-account`: deletes the person and every file of theirs, once they have typed
/// their username and given their password again. The page says first what happens to the teams,
/// leagues and games others share with them.
struct DeleteAccountController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.deleteAccountSettings, use: page)
        routes.post(AccountPath.deleteAccountSettings, use: delete)
    }

    struct Page: Encodable {
        let layout: Layout
        let username: String
        /// What happens to teams, leagues and games others share with them.
        let notices: [DeletionNotice]
        let errors: FieldErrors
    }

    struct Form: Content {
        var username: String?
        var password: String?
    }

    func page(req: Request) async throws -> View {
        try await render(req, user: try req.requireUser(), errors: [:])
    }

    private func render(_ req: Request, user: User, errors: FieldErrors) async throws -> View {
        let userID = try user.requireID()
        var notices: [DeletionNotice] = []
        for feature in req.application.features { notices += try await feature.deletionNotices(for: userID, now: req.now, on: req.db) }
        return try await req.view.render(
            "accounts/settings_delete",
            Page(
                layout: req.layout(title: t("Delete account"), section: .settings, hasForms: true), username: user.username,
                notices: notices, errors: errors
            ))
    }

    func delete(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(Form.self)
        var errors: FieldErrors = [:]
        if (form.username ?? "").trimmingCharacters(in: .whitespaces).lowercased() != user.username {
            errors["username"] = t("Type your username, {username}, exactly.", user.username)
        }
        var status = HTTPStatus.unprocessableEntity
        if (form.password ?? "").isEmpty {
            errors["password"] = t("Enter your password.")
        } else if errors.isEmpty {
            // Only a complete form costs a try, so a mistyped username does not count against anyone.
            switch try await req.recheckPassword(of: user, form.password ?? "") {
            case .right: break
            case .wrong: errors["password"] = t("That is not your password.")
            case .locked(let message): errors["password"] = message; status = .tooManyRequests
            }
        }
        guard errors.isEmpty else {
            return try await render(req, user: user, errors: errors).encodeResponse(status: status, for: req)
        }
        // An export still being made checks that its person exists before its file is put in place
        // (`AccountExport.write`), so none is left behind.
        try await AccountDeletion.delete(user, now: req.now, on: req.db, config: req.application.config, features: req.application.features)
        try await req.personChanged(user.requireID())
        let response = req.redirect(to: .home)
        response.cookies[SessionMiddleware.cookieName] = .expiredAtRoot
        req.forgetSignIn()
        req.flash(.info, t("Your account and everything in it are deleted. Goodbye, and thank you for playing."))
        return response
    }
}

/// Removes a person completely: their rows (most go by ON DELETE CASCADE from `users`), what each
/// feature must undo first (`Feature.deleteAccount`: places in games, teams handed on, challenges
/// and photos), and their files once that is committed: what the features name, their avatar and
/// any export.
enum AccountDeletion {
    static func delete(_ user: User, now: Date, on db: any Database, config: AppConfig, features: [any Feature.Type]) async throws {
        let userID = try user.requireID()
        let afterwards: [AfterDeletion] = try await db.inTransaction { db in
            var afterwards: [AfterDeletion] = []
            for feature in features {
                afterwards.append(try await feature.deleteAccount(of: userID, now: now, on: db, config: config))
            }
            // Failed sign-ins are kept under the name or e-mail typed, not the id.
            let prefixes = [user.username, user.email].map { "account:\($0.lowercased())@" }
            let attempts = try await LoginAttempt.query(on: db).filter(\.$key, .custom("LIKE"), "account:%").all()
                .filter { attempt in prefixes.contains { attempt.key.hasPrefix($0) } }
            try await LoginAttempt.query(on: db).filter(\.$id ~~ attempts.compactMap(\.id)).delete()
            // Their export jobs name them; one running elsewhere finds them gone and writes nothing.
            try await ExportJob.forget(userID, on: db)
            try await user.delete(on: db)
            return afterwards
        }
        for work in afterwards { work() }
        AvatarStore.remove(user.avatarFile, config: config)
        let export = AccountExport.path(for: userID, config: config)
        let folder = (export as NSString).deletingLastPathComponent, name = (export as NSString).lastPathComponent
        let parts = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".part") }
        for path in [export] + parts.map({ folder + "/" + $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
