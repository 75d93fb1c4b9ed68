import FieldhouseKit
import Fluent
import Vapor

/// Creating, showing, editing and deleting teams, and "my teams".
struct TeamController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(TeamPath.teams, use: myTeams)
        routes.get(TeamPath.newTeam, use: newPage)
        routes.post(TeamPath.newTeam, use: create)
        routes.get(TeamPath.team, use: show)
        routes.get(TeamPath.editTeam, use: editPage)
        routes.post(TeamPath.editTeam, use: update)
        routes.get(TeamPath.deleteTeam, use: deletePage)
        routes.post(TeamPath.deleteTeam, use: delete)
    }

    // MARK: Create and edit

    struct FormPage: Encodable {
        let layout: Layout
        let form: TeamForm
        let errors: FieldErrors
        let choices: Choices
        let action: String
        let submit: String
        let cancelURL: String
    }

    func newPage(req: Request) async throws -> View {
        _ = try req.requireUser()
        return try await renderForm(req, form: TeamForm(), errors: [:], team: nil)
    }

    func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(TeamForm.self)
        let (valid, errors) = form.validate()
        guard let valid else {
            return try await renderForm(req, form: form, errors: errors, team: nil).encodeResponse(status: .unprocessableEntity, for: req)
        }
        let team = Team()
        apply(valid, to: team)
        let userID = try user.requireID()
        try await req.db.inTransaction { db in
            team.slug = try await Team.unusedSlug(for: valid.name, on: db)
            try await team.create(on: db)
            try await Membership(teamID: team.requireID(), userID: userID, role: .owner).create(on: db)
        }
        req.flash(.success, t("{team} is ready. Invite your players below.", team.name))
        return req.redirect(to: .team(slug: team.slug))
    }

    func editPage(req: Request) async throws -> View {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        return try await renderForm(req, form: TeamForm(team: access.team), errors: [:], team: access.team)
    }

    func update(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let form = try req.content.decode(TeamForm.self)
        let (valid, errors) = form.validate()
        guard let valid else {
            return try await renderForm(req, form: form, errors: errors, team: access.team).encodeResponse(status: .unprocessableEntity, for: req)
        }
        // The slug stays as it was, so links people already shared keep working after a rename.
        apply(valid, to: access.team)
        let team = access.team
        try await req.db.inTransaction { db in
            try await team.update(on: db)
            for companion in Features.teamCompanions { try await companion.teamChanged(team, on: db) }
        }
        req.flash(.success, t("Team details saved."))
        return req.redirect(to: .team(slug: access.team.slug))
    }

    private func apply(_ valid: TeamForm.Valid, to team: Team) {
        team.name = valid.name
        team.sport = valid.sport.rawValue
        team.privacy = valid.privacy
        team.placeName = valid.place.name
        team.latitude = valid.place.latitude
        team.longitude = valid.place.longitude
        team.ageGroup = valid.ageGroup.rawValue
        team.gender = valid.gender.rawValue
        team.skill = valid.skill.rawValue
        team.description = valid.description
        team.lookingForPlayers = valid.lookingForPlayers
    }

    private func renderForm(_ req: Request, form: TeamForm, errors: FieldErrors, team: Team?) async throws -> View {
        let page = FormPage(
            layout: req.layout(title: team == nil ? t("New team") : t("Edit {team}", team!.name), section: .teams),
            form: form, errors: errors, choices: Choices(),
            action: team == nil ? SiteURL.newTeam.path : SiteURL.editTeam(slug: team!.slug).path,
            submit: team == nil ? t("Create team") : t("Save changes"),
            cancelURL: team == nil ? SiteURL.teams.path : SiteURL.team(slug: team!.slug).path
        )
        return try await req.view.render("teams/form", page)
    }

    // MARK: Show

    func show(req: Request) async throws -> View {
        let access = try await TeamAccess.load(req)
        let page = try await TeamPage.build(access, req: req)
        return try await req.view.render("teams/show", page)
    }

    // MARK: Delete

    struct DeletePage: Encodable {
        let layout: Layout
        let name: String
        let slug: String
        let members: Int
    }

    func deletePage(req: Request) async throws -> View {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        guard access.isOwner else { throw Abort(.forbidden, reason: t("Only the team's owners can delete it.")) }
        let members = try await Membership.query(on: req.db).filter(\.$team.$id == access.team.requireID()).count()
        return try await req.view.render(
            "teams/delete",
            DeletePage(
                layout: req.layout(title: t("Delete {team}", access.team.name), section: .teams),
                name: access.team.name, slug: access.team.slug, members: members
            ))
    }

    func delete(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        guard access.isOwner else { throw Abort(.forbidden, reason: t("Only the team's owners can delete it.")) }
        // Memberships, requests, invitations and league places go with it (ON DELETE CASCADE).
        try await access.team.delete(on: req.db)
        req.flash(.info, t("{team} has been deleted.", access.team.name))
        return req.redirect(to: .teams)
    }

    // MARK: My teams

    struct MyTeamsPage: Encodable {
        let layout: Layout
        let teams: [TeamCard]
        let requested: [TeamCard]
        let invitations: [InvitationCard]
    }

    struct InvitationCard: Encodable {
        let id: String
        let team: TeamCard
    }

    func myTeams(req: Request) async throws -> Response {
        // A visitor has no teams of their own: the menu's Teams shows them the public ones.
        guard let user = req.currentUser else { return req.redirect(to: SiteURL.find.with([("what", "teams")])) }
        let userID = try user.requireID()
        let memberships = try await Membership.query(on: req.db).filter(\.$user.$id == userID).with(\.$team).all()
        let requests = try await JoinRequest.query(on: req.db).filter(\.$user.$id == userID).with(\.$team).all()
        let invites = try await TeamInvite.query(on: req.db).filter(\.$invitee.$id == userID).filter(\.$held == false).with(\.$team).all()
        let page = MyTeamsPage(
            layout: req.layout(title: t("My teams"), section: .teams),
            teams: memberships.map { TeamCard($0.team, role: $0.role) }.sorted { $0.name < $1.name },
            requested: requests.map { TeamCard($0.team, role: nil) },
            invitations: invites.map { InvitationCard(id: SiteURL.id($0.id!), team: TeamCard($0.team, role: nil)) }
        )
        return try await req.view.render("teams/index", page).encodeResponse(for: req)
    }
}

/// A team as shown in lists.
struct TeamCard: Encodable {
    let slug: String
    let name: String
    let sport: String
    let privacy: String
    let level: String
    let role: String?
    let lookingForPlayers: Bool
    var distance: String?

    init(_ team: Team, role: Membership.Role?, distance: String? = nil) {
        slug = team.slug
        name = team.name
        sport = team.sportValue?.label ?? team.sport
        privacy = team.privacy.shortLabel
        level = levelLabel(ageGroup: team.ageGroup, gender: team.gender, skill: team.skill)
        self.role = role?.label
        lookingForPlayers = team.lookingForPlayers
        self.distance = distance
    }
}
