import Fluent
import SQLKit
import Vapor

/// `/settings/delete-account`: deletes the person and every file of theirs, once they have typed
/// their username and given their password again. The page says first what happens to the teams,
/// leagues and games others share with them.
struct DeleteAccountController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("settings", "delete-account", use: page)
        routes.post("settings", "delete-account", use: delete)
    }

    struct TeamFate: Encodable {
        let name: String
        let url: String
        /// The manager who becomes owner; nil when the team is deleted.
        let successor: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let username: String
        let teams: [TeamFate]
        let leagues: [String]
        let upcomingPickups: Int
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
        let steps = try await TeamSuccession.plan(for: userID, on: req.db)
        let leagues = try await League.query(on: req.db).filter(\.$manager.$id == userID).sort(\.$name).all().map(\.name)
        let pickups = try await Game.query(on: req.db).filter(\.$organiser.$id == userID).filter(\.$team.$id == nil)
            .filter(\.$status == .scheduled).filter(\.$startsAt > Date()).count()
        return try await req.view.render(
            "accounts/settings_delete",
            Page(
                layout: req.layout(title: "Delete account", section: .settings, hasForms: true), username: user.username,
                teams: steps.map { TeamFate(name: $0.team.name, url: SiteURL.team(slug: $0.team.slug).path, successor: $0.successor?.displayName) },
                leagues: leagues, upcomingPickups: pickups, errors: errors
            ))
    }

    func delete(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(Form.self)
        var errors: FieldErrors = [:]
        if (form.username ?? "").trimmingCharacters(in: .whitespaces).lowercased() != user.username {
            errors["username"] = "Type your username, \(user.username), exactly."
        }
        var status = HTTPStatus.unprocessableEntity
        if (form.password ?? "").isEmpty {
            errors["password"] = "Enter your password."
        } else if errors.isEmpty {
            // Only a complete form costs a try, so a mistyped username does not count against anyone.
            switch try await req.recheckPassword(of: user, form.password ?? "") {
            case .right: break
            case .wrong: errors["password"] = "That is not your password."
            case .locked(let message): errors["password"] = message; status = .tooManyRequests
            }
        }
        guard errors.isEmpty else {
            return try await render(req, user: user, errors: errors).encodeResponse(status: status, for: req)
        }
        // An export being made would otherwise write their file after everything else is gone.
        await req.application.exportJobs.wait(for: try user.requireID())
        try await AccountDeletion.delete(user, on: req.db, config: req.application.config)
        let response = req.redirect(to: .home)
        response.cookies[SessionMiddleware.cookieName] = .expiredAtRoot
        req.forgetSignIn()
        req.flash(.info, "Your account and everything in it are deleted. Goodbye, and thank you for playing.")
        return response
    }
}

/// Removes a person completely: their rows (most go by ON DELETE CASCADE from `users`), the places
/// they held in upcoming games (so counts stay right and the waiting list moves up), their teams'
/// succession, and their files: avatar, photos they took, and the photos of replies to challenges
/// they sent.
enum AccountDeletion {
    static func delete(_ user: User, on db: any Database, config: AppConfig) async throws {
        let userID = try user.requireID()
        let photos: [Photo] = try await db.transaction { db in
            try await TeamSuccession.apply(for: userID, on: db)
            // Places in games others organise are given up the normal way first.
            let places = try await GamePlayer.query(on: db).filter(\.$user.$id == userID).with(\.$game).all()
            for place in places where place.game.$organiser.id != userID && place.game.startsAt > Date() {
                try await GameRoster.remove(userID: userID, from: place.game, on: db)
            }
            try await Challenge.forgetPerson(userID, on: db)
            var photos: [Photo] = []
            for challenge in try await Challenge.query(on: db).filter(\.$sender.$id == userID).all() {
                photos += try await challenge.deleteWithReplies(on: db)
            }
            let own = try await Photo.query(on: db).filter(\.$owner.$id == userID).all().map { try $0.requireID() }
            photos += try await PhotoStore.deleteRows(own, on: db)
            // Failed sign-ins are kept under the name or e-mail typed, not the id.
            let prefixes = [user.username, user.email].map { "account:\($0.lowercased())@" }
            let attempts = try await LoginAttempt.query(on: db).filter(\.$key, .custom("LIKE"), "account:%").all()
                .filter { attempt in prefixes.contains { attempt.key.hasPrefix($0) } }
            try await LoginAttempt.query(on: db).filter(\.$id ~~ attempts.compactMap(\.id)).delete()
            try await user.delete(on: db)
            return photos
        }
        PhotoStore.removeFiles(of: photos, config: config)
        AvatarStore.remove(user.avatarFile, config: config)
        let export = AccountExport.path(for: userID, config: config)
        for path in [export, export + ".part"] { try? FileManager.default.removeItem(atPath: path) }
    }
}
