import FieldhouseKit
import Fluent
import Vapor

/// Invitations to a team by e-mail, for people who may not be on Fieldhouse yet: a manager sends
/// one, the link opens sign-up (or sign-in) and then the team. Whether the address has an account
/// is never shown to the sender: every answer reads "Invitation sent to …".
struct EmailInviteController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(TeamPath.emailInvites, use: create)
        routes.post(TeamPath.cancelEmailInvite, use: cancel)
        routes.get(TeamPath.emailInvite, use: page).holdsSecret()
        routes.post(TeamPath.emailInvite, use: accept).holdsSecret()
    }

    struct InviteForm: Content {
        var email: String?
    }

    func create(req: Request) async throws -> Response {
        let manager = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        guard req.application.config.sendsMail else {
            throw Abort(.conflict, reason: t("This Fieldhouse does not send e-mail. Share an invitation link instead."))
        }
        let team = access.team
        let teamID = try team.requireID(), managerID = try manager.requireID()
        let typed = String((try req.content.decode(InviteForm.self).email ?? "").prefix(200))
        func mistake(_ message: String, _ status: HTTPStatus = .unprocessableEntity) async throws -> Response {
            try await TeamPage.refused(access, req: req, typed: .init(email: typed), errors: ["invite_email": message], status: status)
        }
        let address = typed.trimmingCharacters(in: .whitespaces).lowercased()
        guard !address.isEmpty else { return try await mistake(t("Enter the e-mail address of the person to invite.")) }
        guard address.count <= 200, MailAddress.isValid(address) else { return try await mistake(t("Enter an email address like name@example.com")) }

        // Someone with an account gets the same e-mail, unless they may not hear from the sender
        // (a child who does not know them, or a block either way); the answer is the same.
        let holder = try await User.query(on: req.db).filter(\.$email == address).first()
        var send = true
        if let holder {
            let member = try await Membership.query(on: req.db).filter(\.$team.$id == teamID).filter(\.$user.$id == holder.requireID()).first() != nil
            send = try await member ? false : Self.mayHear(holder, from: manager, today: req.clock.today, on: req.db)
        }
        let now = req.now, secret = req.application.serverSecret, language = req.language, mails = send
        let overLimit: Bool = try await req.db.inTransaction { db in
            try await db.lockForCount(User.schema, id: managerID)
            let today = try await TeamEmailInviteSend.query(on: db).filter(\.$sender.$id == managerID)
                .filter(\.$createdAt > now.addingTimeInterval(-86_400)).count()
            guard today < TeamEmailInvite.dailyLimit else { return true }
            // An invitation still open for the address stands: a second press sends nothing more.
            let open = try await TeamEmailInvite.query(on: db).filter(\.$team.$id == teamID).filter(\.$email == address)
                .filter(\.$usedAt == nil).filter(\.$expiresAt > now).first()
            guard open == nil else { return false }
            let (invite, _) = TeamEmailInvite.make(teamID: teamID, by: managerID, email: address, now: now, secret: secret)
            try await invite.create(on: db)
            try await TeamEmailInviteSend(sender: managerID, at: now).create(on: db)
            if mails { try await TeamEmailInviteJob.queue(try invite.requireID(), language: language, on: db) }
            return false
        }
        if overLimit {
            return try await mistake(
                t("You have sent {count} e-mail invitations today, the most a day allows. Try again tomorrow.", TeamEmailInvite.dailyLimit),
                .tooManyRequests)
        }
        req.flash(.success, t("Invitation sent to {email}.", address))
        return req.redirect(to: SiteURL.team(slug: team.slug).path + "#invite")
    }

    func cancel(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        guard let id = req.parameters.get("id", as: UUID.self),
            let invite = try await TeamEmailInvite.query(on: req.db).filter(\.$id == id).filter(\.$team.$id == access.team.requireID())
                .filter(\.$usedAt == nil).first()
        else { throw Abort(.notFound, reason: t("That invitation no longer exists.")) }
        let address = invite.email
        // Kept as used, without its address or a hash any link matches, rather than deleted: the
        // day's limit still counts it, so sending and withdrawing in turn cannot mail without end.
        invite.usedAt = req.now
        invite.email = ""
        invite.tokenHash = "withdrawn:" + SiteURL.id(try invite.requireID())
        try await invite.save(on: req.db)
        req.flash(.info, t("Invitation to {email} withdrawn; its link no longer works.", address))
        return req.redirect(to: SiteURL.team(slug: access.team.slug).path + "#invite")
    }

    /// Whether someone with an account may hear from `manager`. Unlike `PersonAccess.reach`, a
    /// profile hidden from the manager changes nothing: the manager typed the address, and a hidden
    /// profile must not skip the rules for children (who hear only from people they follow or share
    /// a team with) and blocks.
    private static func mayHear(_ holder: User, from manager: User, today: CalendarDate, on db: any Database) async throws -> Bool {
        if try await Block.between(holder.requireID(), manager.requireID(), on: db) { return false }
        guard holder.isUnder16(on: today) else { return true }
        let relation = try await Relations.load(viewer: manager, people: [holder.requireID()], today: today, on: db).relation(to: holder)
        return relation.followsViewer == .accepted || relation.sharesTeam
    }

    // MARK: The link

    struct LinkPage: Encodable {
        let layout: Layout
        let team: TeamCard
        let token: String
        let inviter: String
        /// "used" or "expired" when the link no longer works.
        let state: String?
        let signInURL: String?
        let signUpURL: String?
        let alreadyMember: Bool
        /// Why the viewer cannot join (the team's age group), shown instead of the button.
        let refusal: String?
    }

    /// The invitation behind a token; a made-up token is a plain 404 that reveals nothing.
    private func invitation(_ req: Request) async throws -> (TeamEmailInvite, String) {
        let token = req.parameters.get("token") ?? ""
        guard token.count == 43,
            let invite = try await TeamEmailInvite.query(on: req.db).filter(\.$tokenHash == RandomToken.hash(token)).with(\.$team).with(\.$createdBy)
                .first()
        else { throw Abort(.notFound, reason: t("This invitation link is not valid. Check that you opened the whole link from the e-mail.")) }
        return (invite, token)
    }

    private func render(_ req: Request, _ invite: TeamEmailInvite, token: String) async throws -> Response {
        let team = invite.team
        let state: String? = invite.usedAt != nil ? "used" : invite.expiresAt <= req.now ? "expired" : nil
        var member = false
        var refusal: String?
        if let user = req.currentUser, let userID = user.id {
            member = try await Membership.query(on: req.db).filter(\.$team.$id == invite.$team.id).filter(\.$user.$id == userID).first() != nil
            refusal = TeamAccess.ageRefusal(team, user, today: req.clock.today)
        }
        let here = SiteURL.emailInvite(token: token)
        let page = LinkPage(
            layout: req.layout(title: t("Join {team}", team.name), section: .teams, hasForms: true),
            team: TeamCard(team, role: nil), token: token,
            // The person who asked chose to be known to whoever holds the link.
            inviter: invite.createdBy.displayName, state: member ? nil : state,
            signInURL: req.currentUser == nil ? SiteURL.login(next: here) : nil,
            signUpURL: req.currentUser == nil ? SiteURL.signup(next: here) : nil,
            alreadyMember: member, refusal: refusal)
        let status: HTTPStatus = state != nil && !member ? .gone : .ok
        return try await req.view.render("teams/email_invite", page).encodeResponse(status: status, for: req)
    }

    func page(req: Request) async throws -> Response {
        let (invite, token) = try await invitation(req)
        return try await render(req, invite, token: token)
    }

    func accept(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let (invite, token) = try await invitation(req)
        let userID = try user.requireID(), teamID = invite.$team.id
        if try await Membership.query(on: req.db).filter(\.$team.$id == teamID).filter(\.$user.$id == userID).first() != nil {
            return req.redirect(to: .team(slug: invite.team.slug))
        }
        guard invite.usedAt == nil, invite.expiresAt > req.now else { return try await render(req, invite, token: token) }
        try TeamAccess.requireAgeFits(invite.team, user, today: req.clock.today)
        let now = req.now, inviteID = try invite.requireID()
        let took: Bool
        do {
            took = try await take(inviteID, teamID: teamID, userID: userID, now: now, on: req.db)
        } catch {
            // Another invitation to this team made them a member a moment ago: this one stays unused.
            if try await Membership.query(on: req.db).filter(\.$team.$id == teamID).filter(\.$user.$id == userID).first() != nil {
                return req.redirect(to: .team(slug: invite.team.slug))
            }
            throw error
        }
        guard took else {
            invite.usedAt = now
            return try await render(req, invite, token: token)
        }
        req.flash(.success, t("Welcome to {team}!", invite.team.name))
        return req.redirect(to: .team(slug: invite.team.slug))
    }

    /// Uses the invitation and makes the membership, or nothing when the invitation was used.
    private func take(_ inviteID: UUID, teamID: UUID, userID: UUID, now: Date, on db: any Database) async throws -> Bool {
        try await db.inTransaction { db in
            // Used once: the row changes first, guarded, so two presses (or two people) cannot both join by it.
            // The address goes with it: the invitation has done its work.
            guard
                try await db.sql.raw(
                    """
                    UPDATE team_email_invites SET used_at = \(bind: now), email = '' WHERE id = \(bind: inviteID) AND used_at IS NULL RETURNING id
                    """
                ).first() != nil
            else { return false }
            try await Membership(teamID: teamID, userID: userID, role: .player).create(on: db)
            try await JoinRequest.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id == userID).delete()
            try await TeamInvite.query(on: db).filter(\.$team.$id == teamID).filter(\.$invitee.$id == userID).delete()
            return true
        }
    }
}
