import FieldhouseKit
import Fluent
import Vapor

/// `/settings/coaches`: the athlete's side. Who coaches me, who asks to, adding a coach, and
/// revoking one (access ends with the next request the coach makes).
struct CoachSettingsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CoachPath.coachSettings, use: page)
        routes.post(CoachPath.coachSettings, use: add)
        routes.post(CoachPath.acceptCoach, use: accept)
        routes.post(CoachPath.declineCoach, use: decline)
        routes.post(CoachPath.revokeCoach, use: revoke)
    }

    struct Row: Encodable {
        let id: String
        let name: String
        let username: String
        let since: String?
        let team: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let active: [Row]
        let incoming: [Row]
        let outgoing: [Row]
        let username: String
        let errors: FieldErrors
    }

    private func render(_ req: Request, user: User, typed: String = "", errors: FieldErrors = [:]) async throws -> Response {
        let grants = try await CoachGrant.query(on: req.db).filter(\.$athlete.$id == user.requireID()).with(\.$coach).sort(\.$createdAt).all()
            .filter { !($0.held && $0.requestedBy == .coach) }
        let teamIDs = grants.compactMap(\.teamID)
        let teams =
            teamIDs.isEmpty
            ? [:]
            : Dictionary(
                try await Team.query(on: req.db).filter(\.$id ~~ teamIDs).all().map { ($0.id!, $0.name) },
                uniquingKeysWith: { a, _ in a })
        let format = Format(user)
        func row(_ grant: CoachGrant) -> Row {
            Row(
                id: grant.id?.uuidString.lowercased() ?? "", name: grant.coach.displayName, username: grant.coach.username,
                since: grant.acceptedAt.map(format.when), team: grant.teamID.flatMap { teams[$0] })
        }
        let page = Page(
            layout: req.layout(title: t("Coaches")),
            active: grants.filter { $0.status == .active }.map(row),
            incoming: grants.filter { $0.status == .pending && $0.requestedBy == .coach }.map(row),
            outgoing: grants.filter { $0.status == .pending && $0.requestedBy == .athlete }.map(row),
            username: typed, errors: errors)
        return try await req.view.render("coaching/settings_coaches", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req, user: try req.requireUser())
    }

    /// The athlete asks someone to coach them.
    func add(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let typed = ((try? req.content.get(String.self, at: "username")) ?? "").trimmingCharacters(in: .whitespaces)
        let name = typed.hasPrefix("@") ? String(typed.dropFirst()) : typed
        guard !name.isEmpty else { return try await render(req, user: user, typed: typed, errors: ["username": t("Type your coach's username.")]) }
        let found = try await User.query(on: req.db).filter(\.$username == name.lowercased()).first()
        // Someone hidden from the athlete is answered for exactly like nobody.
        let reach = try await PersonAccess.reach(found, from: user, today: req.clock.today, on: req.db)
        guard let coach = found, reach != .unknown else {
            return try await render(req, user: user, typed: typed, errors: ["username": t("There is nobody called {name} here.", name)])
        }
        guard coach.id != user.id else { return try await render(req, user: user, typed: typed, errors: ["username": t("You cannot be your own coach.")]) }
        switch try await CoachGrants.ask(coach: coach, athlete: user, by: .athlete, team: nil, held: reach == .dropped, now: req.now, on: req.db) {
        case .asked:
            req.flash(.success, t("Asked {name}. They see your training only once they accept, and you can revoke it at any time.", coach.displayName))
        case .accepted: req.flash(.success, t("{name} had already asked: they now coach you.", coach.displayName))
        case .already(let status):
            req.flash(.info, status == .active ? t("{name} already coaches you.", coach.displayName) : t("{name} has not answered yet.", coach.displayName))
        }
        return req.redirect(to: .coachSettings)
    }

    func accept(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let grant = try await mine(req, user: user, status: .pending)
        guard grant.requestedBy == .coach else { throw Abort(.notFound) }
        grant.status = .active
        grant.acceptedAt = req.now
        try await grant.save(on: req.db)
        try await Notification.send(
            to: [grant.$coach.id], from: user.id, kind: .coachAccepted, text: t("{name} accepted: you now coach them.", user.displayName),
            link: SiteURL.athlete(username: user.username).path, on: req.db)
        req.flash(.success, t("{name} now sees your workouts and heart rate. Revoke it here whenever you like.", grant.coach.displayName))
        return req.redirect(to: .coachSettings)
    }

    func decline(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let grant = try await mine(req, user: user, status: .pending)
        try await grant.delete(on: req.db)
        req.flash(
            .success,
            grant.requestedBy == .coach
                ? t("Declined {name}'s request.", grant.coach.displayName) : t("Withdrew your request to {name}.", grant.coach.displayName))
        return req.redirect(to: .coachSettings)
    }

    func revoke(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let grant = try await mine(req, user: user, status: .active)
        try await grant.delete(on: req.db)
        req.flash(.success, t("{name} no longer sees your training.", grant.coach.displayName))
        return req.redirect(to: .coachSettings)
    }

    private func mine(_ req: Request, user: User, status: CoachGrant.Status) async throws -> CoachGrant {
        guard let id = req.parameters.get("id", as: UUID.self),
            let grant = try await CoachGrant.query(on: req.db).filter(\.$id == id).filter(\.$athlete.$id == user.requireID())
                .filter(\.$status == status).with(\.$coach).first(), !(grant.held && grant.requestedBy == .coach)
        else { throw Abort(.notFound) }
        return grant
    }
}
