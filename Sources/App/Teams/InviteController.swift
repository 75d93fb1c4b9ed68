import Fluent
import Vapor

/// Invitations by username and by shareable link.
struct InviteController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(TeamPath.invites, use: create)
        routes.post(TeamPath.revokeInvite, use: revoke)
        routes.post(TeamPath.acceptInvite) { try await answer(req: $0, accept: true) }
        routes.post(TeamPath.declineInvite) { try await answer(req: $0, accept: false) }
        routes.get(TeamPath.join, use: linkPage).holdsSecret()
        routes.post(TeamPath.join, use: joinByLink).holdsSecret()
    }

    struct InviteForm: Content {
        var username: String?
        var kind: String?
    }

    func create(req: Request) async throws -> Response {
        let manager = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let team = access.team
        let teamID = try team.requireID(), managerID = try manager.requireID()
        let form = try req.content.decode(InviteForm.self)

        if form.kind == "link" {
            try await TeamInvite.link(teamID: teamID, by: managerID, secret: req.application.serverSecret).invite.create(on: req.db)
            req.flash(.success, t("Invitation link made. Copy it from the list below; it works until you revoke it."))
            return req.redirect(to: SiteURL.team(slug: team.slug).path + "#invite-links")
        }

        // A mistake shows the team page again with the typed name and the message beside the field.
        let typed = String((form.username ?? "").prefix(100))
        func mistake(_ message: String, _ status: HTTPStatus = .unprocessableEntity) async throws -> Response {
            try await TeamPage.refused(access, req: req, typed: .init(username: typed), errors: ["username": message], status: status)
        }
        let username = AccountRules.collapseWhitespace(typed).lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "@"))
        guard !username.isEmpty else { return try await mistake(t("Enter the username of the person to invite.")) }
        let found = try await User.query(on: req.db).filter(\.$username == username).first()
        // A private profile cannot be invited (or even confirmed to exist) by someone it is hidden from,
        // and a child cannot be reached by a stranger: otherwise anyone could create a team and message a teenager.
        let reach = try await PersonAccess.reach(found, from: manager, today: req.clock.today, on: req.db)
        guard let invitee = found, reach != .unknown else {
            return try await mistake(t("Nobody has the username “{username}”. Check the spelling on their profile page.", username))
        }
        let inviteeID = try invitee.requireID()
        // A held invitation answers as if sent: refusing it for age would tell a stranger the person's age group.
        if reach != .dropped, let refusal = TeamAccess.ageRefusal(team, invitee, today: req.clock.today) { return try await mistake(refusal) }
        if try await Membership.query(on: req.db).filter(\.$team.$id == teamID).filter(\.$user.$id == inviteeID).first() != nil {
            return try await mistake(t("{name} is already in the team.", invitee.displayName), .conflict)
        }
        // A held invitation is stored like any other, so the team page lists it the same way, but the
        // invitee never sees it; once the sender may reach them, asking again delivers it.
        let held = reach == .dropped
        // Looked up and written under a lock on the team's row: two presses at once make one
        // invitation and one notification.
        try await req.db.inTransaction { db in
            try await db.lockForCount(Team.schema, id: teamID)
            let existing = try await TeamInvite.query(on: db).filter(\.$team.$id == teamID).filter(\.$invitee.$id == inviteeID).first()
            guard existing == nil || (existing?.held == true && !held) else { return }
            let invite = existing ?? TeamInvite.forPerson(teamID: teamID, invitee: inviteeID, by: managerID)
            invite.held = held
            try await invite.save(on: db)
            if !held {
                try await Notification.send(
                    to: [inviteeID], from: managerID, kind: .invited, text: t("{name} invited you to join {team}", manager.displayName, team.name),
                    link: SiteURL.teams.path, on: db)
            }
        }
        req.flash(.success, t("{name} is invited. They will see it under My teams.", invitee.displayName))
        return req.redirect(to: .team(slug: team.slug))
    }

    func revoke(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        guard let id = req.parameters.get("id", as: UUID.self),
            let invite = try await TeamInvite.query(on: req.db).filter(\.$id == id).filter(\.$team.$id == access.team.requireID()).first()
        else { throw Abort(.notFound, reason: t("That invitation no longer exists.")) }
        try await invite.delete(on: req.db)
        req.flash(.info, invite.tokenHash == nil ? t("Invitation withdrawn.") : t("Invitation link revoked; it no longer works."))
        return req.redirect(to: .team(slug: access.team.slug))
    }

    func answer(req: Request, accept: Bool) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        guard let id = req.parameters.get("id", as: UUID.self),
            let invite = try await TeamInvite.query(on: req.db).filter(\.$id == id).filter(\.$invitee.$id == userID).filter(\.$held == false)
                .with(\.$team).first()
        else { throw Abort(.notFound, reason: t("That invitation is no longer open.")) }
        let team = invite.team
        if accept { try TeamAccess.requireAgeFits(team, user, today: req.clock.today) }
        try await req.db.inTransaction { db in
            if accept {
                try await Membership(teamID: team.requireID(), userID: userID, role: .player).create(on: db)
                try await JoinRequest.query(on: db).filter(\.$team.$id == team.requireID()).filter(\.$user.$id == userID).delete()
            }
            try await invite.delete(on: db)
        }
        req.flash(accept ? .success : .info, accept ? t("Welcome to {team}!", team.name) : t("Invitation to {team} declined.", team.name))
        return req.redirect(to: accept ? SiteURL.team(slug: team.slug).path : SiteURL.teams.path)
    }

    // MARK: Links

    struct LinkPage: Encodable {
        let layout: Layout
        let team: TeamCard
        let token: String
        let signInURL: String?
        let alreadyMember: Bool
    }

    /// The invitation behind a link; an unknown or revoked token is a plain 404 that reveals nothing.
    private func linkInvite(_ req: Request) async throws -> (TeamInvite, String) {
        let token = req.parameters.get("token") ?? ""
        guard token.count == 43,
            let invite = try await TeamInvite.query(on: req.db).filter(\.$tokenHash == RandomToken.hash(token)).with(\.$team).first()
        else { throw Abort(.notFound) }
        return (invite, token)
    }

    func linkPage(req: Request) async throws -> View {
        let (invite, token) = try await linkInvite(req)
        var member = false
        if let userID = req.currentUser?.id {
            member = try await Membership.query(on: req.db).filter(\.$team.$id == invite.$team.id).filter(\.$user.$id == userID).first() != nil
        }
        let page = LinkPage(
            layout: req.layout(title: t("Join {team}", invite.team.name), section: .teams, hasForms: true),
            team: TeamCard(invite.team, role: nil), token: token,
            signInURL: req.currentUser == nil ? SiteURL.login(next: .join(token: token)) : nil,
            alreadyMember: member
        )
        return try await req.view.render("teams/join_link", page)
    }

    func joinByLink(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let (invite, _) = try await linkInvite(req)
        let userID = try user.requireID()
        let teamID = invite.$team.id
        if try await Membership.query(on: req.db).filter(\.$team.$id == teamID).filter(\.$user.$id == userID).first() == nil {
            try TeamAccess.requireAgeFits(invite.team, user, today: req.clock.today)
            try await req.db.inTransaction { db in
                try await Membership(teamID: teamID, userID: userID, role: .player).create(on: db)
                try await JoinRequest.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id == userID).delete()
            }
            req.flash(.success, t("Welcome to {team}!", invite.team.name))
        }
        return req.redirect(to: .team(slug: invite.team.slug))
    }
}
