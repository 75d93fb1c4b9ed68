import FieldhouseKit
import Fluent
import Vapor

/// Leagues: creating one, inviting teams of the same sport, and the standings.
struct LeagueController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(TeamPath.leagues, use: index)
        routes.get(TeamPath.newLeague, use: newPage)
        routes.post(TeamPath.newLeague, use: create)
        routes.get(TeamPath.league, use: show)
        routes.post(TeamPath.leagueTeams, use: inviteTeam)
        routes.post(TeamPath.acceptLeagueTeam) { try await answer(req: $0, accept: true) }
        routes.post(TeamPath.declineLeagueTeam) { try await answer(req: $0, accept: false) }
        routes.post(TeamPath.removeLeagueTeam, use: removeTeam)
    }

    struct LeagueForm: Content {
        var name: String?
        var sport: String?
        var skill: String?
        var age_group: String?
        var gender: String?
        var place_name: String?
        var latitude: String?
        var longitude: String?
        var privacy: String?
    }

    struct FormPage: Encodable {
        let layout: Layout
        let form: LeagueForm
        let errors: FieldErrors
        let choices: Choices
    }

    struct LeagueCard: Encodable {
        let slug: String
        let name: String
        let sport: String
        let isPrivate: Bool
    }

    struct IndexPage: Encodable {
        let layout: Layout
        let mine: [LeagueCard]
        let others: [LeagueCard]
    }

    func index(req: Request) async throws -> View {
        let viewer = req.currentUser
        var mine: [League] = []
        if let viewerID = viewer?.id {
            let teamIDs = try await Membership.query(on: req.db).filter(\.$user.$id == viewerID).all().map { $0.$team.id }
            let viaTeams = teamIDs.isEmpty ? [] : try await LeagueTeam.query(on: req.db).filter(\.$team.$id ~~ teamIDs).all().map { $0.$league.id }
            mine = try await League.query(on: req.db).group(.or) { group in
                group.filter(\.$manager.$id == viewerID)
                if !viaTeams.isEmpty { group.filter(\.$id ~~ viaTeams) }
            }.sort(\.$name).all()
        }
        let mineIDs = Set(mine.compactMap(\.id))
        let others = try await League.query(on: req.db).filter(\.$isPrivate == false).sort(\.$name).limit(100).all()
            .filter { !mineIDs.contains($0.id!) }
        func card(_ league: League) -> LeagueCard {
            LeagueCard(slug: league.slug, name: league.name, sport: Sport(rawValue: league.sport)?.label ?? league.sport, isPrivate: league.isPrivate)
        }
        return try await req.view.render(
            "leagues/index",
            IndexPage(
                layout: req.layout(title: t("Leagues"), section: .teams), mine: mine.map(card), others: others.map(card)
            ))
    }

    func newPage(req: Request) async throws -> View {
        _ = try req.requireUser()
        var form = LeagueForm()
        form.skill = TeamSkill.any.rawValue
        form.age_group = AgeGroup.any.rawValue
        form.gender = TeamGender.any.rawValue
        form.privacy = "public"
        return try await req.view.render(
            "leagues/form", FormPage(layout: req.layout(title: t("New league"), section: .teams), form: form, errors: [:], choices: Choices()))
    }

    func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(LeagueForm.self)
        var errors: FieldErrors = [:]
        let attributes = Attributes.validate(
            name: form.name, sport: form.sport, ageGroup: form.age_group, gender: form.gender, skill: form.skill,
            placeName: form.place_name, latitude: form.latitude, longitude: form.longitude, errors: &errors
        )
        if !["public", "private"].contains(form.privacy ?? "") { errors["privacy"] = t("Choose public or private") }
        guard errors.isEmpty, let attributes else {
            return try await req.view.render(
                "leagues/form", FormPage(layout: req.layout(title: t("New league"), section: .teams), form: form, errors: errors, choices: Choices())
            )
            .encodeResponse(status: .unprocessableEntity, for: req)
        }
        let league = League()
        league.name = attributes.name
        league.sport = attributes.sport.rawValue
        league.skill = attributes.skill.rawValue
        league.ageGroup = attributes.ageGroup.rawValue
        league.gender = attributes.gender.rawValue
        league.placeName = attributes.place.name
        league.latitude = attributes.place.latitude
        league.longitude = attributes.place.longitude
        league.isPrivate = form.privacy == "private"
        league.$manager.id = try user.requireID()
        try await req.db.inTransaction { db in
            league.slug = try await League.unusedSlug(for: attributes.name, on: db)
            try await league.create(on: db)
        }
        req.flash(.success, t("{league} is created. Invite teams below.", league.name))
        return req.redirect(to: .league(slug: league.slug))
    }

    // MARK: Show

    struct StandingRow: Encodable {
        let position: Int
        let slug: String
        let name: String
        let played, won, drawn, lost, pointsFor, pointsAgainst, points: Int
    }

    struct InvitedTeam: Encodable {
        let slug: String
        let name: String
        let canAnswer: Bool
    }

    struct FixtureRow: Encodable {
        let url: String
        let home: String
        let away: String
        let day: String
        let machineDay: String
        let time: String
        let score: String?
        /// The score waits for the other team's confirmation and does not count yet.
        let isPending: Bool
        let isCancelled: Bool
    }

    struct FixtureRound: Encodable {
        let number: Int
        let fixtures: [FixtureRow]
        let bye: String?
    }

    struct ShowPage: Encodable {
        let layout: Layout
        let league: LeagueCard
        let level: String
        let place: String?
        let manager: String
        let isManager: Bool
        /// The season's fixtures by round, once scheduled.
        let rounds: [FixtureRound]
        /// The manager may schedule a season: none is under way (one with games to come).
        let canSchedule: Bool
        let standings: [StandingRow]
        let invited: [InvitedTeam]
        let removable: [String]
        /// The invite-a-team field as typed, shown again with `errors` when it was refused.
        let typedTeam: String
        /// Teams the manager may invite, offered as the field is typed (a datalist: no script needed).
        let teamChoices: [String]
        let errors: FieldErrors
    }

    /// Teams of the league's sport that `viewer` may see and that are not in it yet, by name; a
    /// name two teams share is told apart by its address ("Riverside (riverside-2)").
    private static func invitable(to access: LeagueAccess, viewer: User?, on db: any Database) async throws -> [(choice: String, team: Team)] {
        let taken = Set(access.entries.map { $0.$team.id })
        let teams = try await Team.query(on: db).filter(\.$sport == access.league.sport).sort(\.$name).limit(500).all()
            .filter { $0.id.map { !taken.contains($0) } ?? false }
        let visible = try await TeamAccess.visible(teams, viewer: viewer, on: db)
        let counts = Dictionary(grouping: visible, by: { $0.name.lowercased() }).mapValues(\.count)
        return visible.map { team in (counts[team.name.lowercased(), default: 0] > 1 ? "\(team.name) (\(team.slug))" : team.name, team) }
    }

    func show(req: Request) async throws -> View {
        try await req.view.render("leagues/show", showPage(req, access: LeagueAccess.load(req)))
    }

    private func showPage(_ req: Request, access: LeagueAccess, typedTeam: String = "", errors: FieldErrors = [:]) async throws -> ShowPage {
        let entries = access.entries
        let league = access.league
        let active = entries.filter { $0.status == .active }
        // Private teams are shown only to their members and the league manager; they are not counted.
        let shown = active.filter { TeamAccess.isListed($0.team) || access.isManager || access.memberTeamIDs.contains($0.$team.id) }
        let table = Standings.table(teams: shown.map { $0.team.slug }, results: try await Self.results(of: league, on: req.db))
        let bySlug = Dictionary(uniqueKeysWithValues: shown.map { ($0.team.slug, $0.team) })
        let standings = table.enumerated().map { index, row in
            StandingRow(
                position: index + 1, slug: row.team, name: bySlug[row.team]?.name ?? row.team,
                played: row.played, won: row.won, drawn: row.drawn, lost: row.lost,
                pointsFor: row.pointsFor, pointsAgainst: row.pointsAgainst, points: row.points
            )
        }
        let invited = entries.filter { $0.status == .invited }
            .filter { access.isManager || access.managedTeamIDs.contains($0.$team.id) }
            .map { InvitedTeam(slug: $0.team.slug, name: $0.team.name, canAnswer: access.managedTeamIDs.contains($0.$team.id)) }
        let manager = try await User.find(league.$manager.id, on: req.db)
        var fixtures: [LeagueFixture] = []
        for companion in Features.teamCompanions { fixtures += try await companion.leagueFixtures(of: league, on: req.db) }
        return ShowPage(
            layout: req.layout(title: league.name, section: .teams),
            league: LeagueCard(slug: league.slug, name: league.name, sport: Sport(rawValue: league.sport)?.label ?? league.sport, isPrivate: league.isPrivate),
            level: levelLabel(ageGroup: league.ageGroup, gender: league.gender, skill: league.skill),
            place: league.placeName,
            manager: manager?.displayName ?? "",
            isManager: access.isManager,
            rounds: Self.rounds(fixtures, of: access, shown: shown.map(\.team)),
            canSchedule: access.isManager && !fixtures.contains { !$0.isCancelled && $0.startsAt > req.now },
            standings: standings,
            invited: invited,
            removable: shown.filter { access.isManager || access.managedTeamIDs.contains($0.$team.id) }.map { $0.team.slug },
            typedTeam: typedTeam,
            teamChoices: access.isManager ? try await Self.invitable(to: access, viewer: req.currentUser, on: req.db).map(\.choice) : [],
            errors: errors
        )
    }

    /// The season by round. A team the viewer may not see is "A private team"; the link goes to the
    /// copy of the game the viewer's own team has, where they can answer.
    private static func rounds(_ fixtures: [LeagueFixture], of access: LeagueAccess, shown: [Team]) -> [FixtureRound] {
        let names = Dictionary(uniqueKeysWithValues: shown.compactMap { team in team.id.map { ($0, team.name) } })
        func name(_ id: UUID) -> String { names[id] ?? t("A private team") }
        let active = Set(access.entries.filter { $0.status == .active }.map { $0.$team.id })
        return Dictionary(grouping: fixtures, by: \.round).sorted { $0.key < $1.key }.map { number, games in
            let resting = active.subtracting(games.flatMap { [$0.home, $0.away] })
            return FixtureRound(
                number: number,
                fixtures: games.map { game in
                    let clock = WallClock(game.startsAt, zone: TimeZone.named(game.timeZone))
                    return FixtureRow(
                        url: access.memberTeamIDs.contains(game.away) && !access.memberTeamIDs.contains(game.home) ? game.awayGame : game.homeGame,
                        home: name(game.home), away: name(game.away), day: Format.weekdayAndDay(clock),
                        machineDay: LocalTime.day(of: game.startsAt, zone: game.timeZone).description, time: clock.clock,
                        score: game.score.map { "\($0.home)–\($0.away)" }, isPending: game.score != nil && !game.isConfirmed, isCancelled: game.isCancelled)
                },
                bye: resting.count == 1 ? resting.first.map(name) : nil)
        }
    }

    /// Scores of the league's fixtures, from the features that keep them.
    static func results(of league: League, on db: any Database) async throws -> [Standings.Result] {
        var all: [Standings.Result] = []
        for companion in Features.teamCompanions { all += try await companion.leagueResults(of: league, on: db) }
        return all
    }

    // MARK: Teams

    struct TeamInviteForm: Content {
        var team: String?
    }

    func inviteTeam(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await LeagueAccess.load(req)
        let entries = access.entries
        guard access.isManager else { throw Abort(.forbidden, reason: t("Only the league's manager can invite teams.")) }
        let typed = String((try req.content.decode(TeamInviteForm.self).team ?? "").prefix(200))
        // A mistake shows the league page again with the typed address and the message beside it.
        func mistake(_ message: String, _ status: HTTPStatus = .unprocessableEntity) async throws -> Response {
            try await req.view.render("leagues/show", showPage(req, access: access, typedTeam: typed, errors: ["team": message]))
                .encodeResponse(status: status, for: req)
        }
        let raw = typed.trimmingCharacters(in: .whitespaces)
        // A team by its name as offered, its name in any case, or its address (or the last part of it).
        let choices = try await Self.invitable(to: access, viewer: user, on: req.db)
        let byName = choices.filter { $0.choice.lowercased() == raw.lowercased() || $0.team.name.lowercased() == raw.lowercased() }
        if byName.count > 1 {
            return try await mistake(t("{count} teams are called “{name}”: pick one from the suggestions.", byName.count, raw))
        }
        let slug = raw.lowercased().split(separator: "/").last.map(String.init) ?? raw.lowercased()
        var found = byName.first?.team
        if found == nil, !slug.isEmpty, let team = try await Team.query(on: req.db).filter(\.$slug == slug).first(),
            try await TeamAccess.of(team, viewer: user, on: req.db).canSee
        {
            found = team
        }
        guard let team = found else {
            return try await mistake(
                t("No team is called “{name}”. Type a team's name and pick it from the suggestions, or give its address, e.g. riverside-futsal.", raw))
        }
        guard team.sport == access.league.sport else {
            return try await mistake(
                t(
                    "{team} plays {sport}; this league is for {league_sport}.", team.name, team.sportValue?.label ?? team.sport,
                    Sport(rawValue: access.league.sport)?.label ?? access.league.sport))
        }
        if entries.contains(where: { $0.$team.id == team.id }) {
            return try await mistake(t("{team} is already in the league or invited.", team.name), .conflict)
        }
        let teamID = try team.requireID()
        let managesTeam =
            try await Membership.query(on: req.db).filter(\.$team.$id == teamID).filter(\.$user.$id == user.requireID())
            .filter(\.$role ~~ [.owner, .manager]).first() != nil
        try await req.db.inTransaction { db in
            // A league manager who also manages the team need not accept their own invitation.
            try await LeagueTeam(leagueID: access.league.requireID(), teamID: teamID, status: managesTeam ? .active : .invited).create(on: db)
            if !managesTeam {
                try await Notification.send(
                    to: try await Membership.managerIDs(of: teamID, on: db), from: nil, kind: .leagueInvite,
                    text: t("{team} is invited to the league {league}", team.name, access.league.name), link: SiteURL.league(slug: access.league.slug).path,
                    on: db
                )
            }
        }
        req.flash(.success, managesTeam ? t("{team} is in the league.", team.name) : t("{team} is invited; its managers will see the invitation.", team.name))
        return req.redirect(to: .league(slug: access.league.slug))
    }

    func answer(req: Request, accept: Bool) async throws -> Response {
        _ = try req.requireUser()
        let access = try await LeagueAccess.load(req)
        let entries = access.entries
        let slug = req.parameters.get("team") ?? ""
        guard let entry = entries.first(where: { $0.team.slug == slug && $0.status == .invited }) else {
            throw Abort(.notFound, reason: t("That invitation is no longer open."))
        }
        guard access.managedTeamIDs.contains(entry.$team.id) else {
            throw Abort(.forbidden, reason: t("Only the team's managers can answer for it."))
        }
        if accept {
            entry.status = .active
            try await entry.update(on: req.db)
        } else {
            try await entry.delete(on: req.db)
        }
        req.flash(accept ? .success : .info, accept ? t("{team} joined {league}.", entry.team.name, access.league.name) : t("Invitation declined."))
        return req.redirect(to: .league(slug: access.league.slug))
    }

    func removeTeam(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await LeagueAccess.load(req)
        let entries = access.entries
        let slug = req.parameters.get("team") ?? ""
        guard let entry = entries.first(where: { $0.team.slug == slug }) else { throw Abort(.notFound) }
        guard access.isManager || access.managedTeamIDs.contains(entry.$team.id) else {
            throw Abort(.forbidden, reason: t("Only the league's manager or the team's managers can do that."))
        }
        try await entry.delete(on: req.db)
        req.flash(.info, t("{team} is no longer in {league}.", entry.team.name, access.league.name))
        return req.redirect(to: .league(slug: access.league.slug))
    }
}
