import FieldhouseKit
import Fluent
import Vapor

/// A league manager schedules the season: the form previews the rounds (a GET, so nothing is
/// written until the manager confirms), and the confirming POST makes each fixture a game of both
/// teams.
struct SeasonController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(TeamPath.leagueSchedule, use: page)
        routes.post(TeamPath.leagueSchedule, use: create)
    }

    struct PlannedFixture: Encodable {
        let home: String
        let away: String
        let place: String?
    }

    struct PlannedRound: Encodable {
        let number: Int
        let day: String
        /// The day for machines, for `<time datetime>`.
        let machineDay: String
        let time: String
        let fixtures: [PlannedFixture]
        let bye: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let league: String
        let slug: String
        let teams: [String]
        let form: SeasonForm
        let errors: FieldErrors
        /// Why the season cannot be scheduled now (too few teams, a season under way), instead of the form.
        let refusal: String?
        let weekdays: [SelectOption]
        let timeZones: [String]
        /// The rounds the form would make, once it was sent and is valid.
        let preview: [PlannedRound]
        let gameCount: Int
    }

    /// The league, loaded for its manager only: anyone else who may see it is refused.
    private func managedLeague(_ req: Request) async throws -> (access: LeagueAccess, teams: [Team]) {
        _ = try req.requireUser()
        let access = try await LeagueAccess.load(req)
        guard access.isManager else { throw Abort(.forbidden, reason: t("Only the league's manager can schedule its season.")) }
        let teams = access.entries.filter { $0.status == .active }.map(\.team).sorted { ($0.name, $0.slug) < ($1.name, $1.slug) }
        return (access, teams)
    }

    /// Why no season can be made now, if so: it needs two teams that accepted, and the season
    /// already scheduled must be over (its games are moved or cancelled one by one, never replaced).
    private func refusal(_ league: League, teams: [Team], now: Date, on db: any Database) async throws -> (String, HTTPStatus)? {
        if teams.count < 2 {
            return (t("A season needs at least two teams that have accepted the league's invitation."), .unprocessableEntity)
        }
        let upcoming = try await Game.query(on: db).filter(\.$league.$id == league.requireID()).filter(\.$leagueRound != nil)
            .filter(\.$status == .scheduled).filter(\.$startsAt > now).count()
        if upcoming > 0 {
            return (
                t("This league's season is already scheduled. Move or cancel its games one by one; a new season can be scheduled once they are played."),
                .conflict
            )
        }
        return nil
    }

    func page(req: Request) async throws -> Response {
        let (access, teams) = try await managedLeague(req)
        let user = try req.requireUser()
        if let (reason, status) = try await refusal(access.league, teams: teams, now: req.now, on: req.db) {
            return try await render(
                req, access: access, teams: teams, form: SeasonForm(zone: user.timeZone, today: req.clock.today(in: user.timeZone)), refusal: reason,
                status: status)
        }
        let sent = try req.query.decode(SeasonForm.self)
        guard sent.isFilled else {
            return try await render(req, access: access, teams: teams, form: SeasonForm(zone: user.timeZone, today: req.clock.today(in: user.timeZone)))
        }
        let (valid, errors) = sent.validate(now: req.now)
        guard let valid else { return try await render(req, access: access, teams: teams, form: sent, errors: errors, status: .unprocessableEntity) }
        return try await render(req, access: access, teams: teams, form: sent, preview: Season.plan(valid, teams: teams))
    }

    func create(req: Request) async throws -> Response {
        let (access, teams) = try await managedLeague(req)
        let user = try req.requireUser()
        let form = try req.content.decode(SeasonForm.self)
        if let (reason, status) = try await refusal(access.league, teams: teams, now: req.now, on: req.db) {
            return try await render(req, access: access, teams: teams, form: form, refusal: reason, status: status)
        }
        let (valid, errors) = form.validate(now: req.now)
        guard let valid else { return try await render(req, access: access, teams: teams, form: form, errors: errors, status: .unprocessableEntity) }
        let rounds = Season.plan(valid, teams: teams)
        try await req.db.inTransaction { db in
            // Two managers confirming at once would make two seasons: the second waits here and is refused.
            try await db.lockForCount(League.schema, id: access.league.requireID())
            guard try await refusal(access.league, teams: teams, now: req.now, on: db) == nil else {
                throw Abort(.conflict, reason: t("This league's season is already scheduled."))
            }
            try await Season.create(rounds, league: access.league, organiser: user.requireID(), valid: valid, on: db)
            try await Self.tellTeams(teams, league: access.league, on: db)
        }
        let count = rounds.reduce(0) { $0 + $1.fixtures.count }
        req.flash(.success, tn("{count} fixture is scheduled; the teams have been told.", "{count} fixtures are scheduled; the teams have been told.", count))
        return req.redirect(to: .league(slug: access.league.slug))
    }

    private func render(
        _ req: Request, access: LeagueAccess, teams: [Team], form: SeasonForm, errors: FieldErrors = [:], refusal: String? = nil,
        preview rounds: [Season.Round] = [], status: HTTPStatus = .ok
    ) async throws -> Response {
        let zone = form.time_zone ?? "UTC"
        let preview = rounds.map { round in
            PlannedRound(
                number: round.number, day: GameTime.shortDay(round.startsAt, zone: zone),
                machineDay: LocalTime.day(of: round.startsAt, zone: zone).description, time: GameTime.clock(round.startsAt, zone: zone),
                fixtures: round.fixtures.map { PlannedFixture(home: $0.home.name, away: $0.away.name, place: $0.home.placeName) },
                bye: round.bye?.name)
        }
        // Monday first, as a week is read in both languages; values are CalendarDate's weekday numbers.
        let weekdays = [1, 2, 3, 4, 5, 6, 0].map { SelectOption(value: String($0), label: Format.weekdayName($0)) }
        let page = Page(
            layout: req.layout(title: t("Schedule the season of {league}", access.league.name), section: .teams),
            league: access.league.name, slug: access.league.slug, teams: teams.map(\.name), form: form, errors: errors, refusal: refusal,
            weekdays: weekdays, timeZones: Format.timeZoneIdentifiers, preview: preview,
            gameCount: rounds.reduce(0) { $0 + $1.fixtures.count })
        return try await req.view.render("leagues/schedule", page).encodeResponse(status: status, for: req)
    }

    /// One note per member of each team, not one per game: a season is many games at once.
    private static func tellTeams(_ teams: [Team], league: League, on db: any Database) async throws {
        for team in teams {
            let members = try await Membership.query(on: db).filter(\.$team.$id == team.requireID()).all().map { $0.$user.id }
            try await Notification.send(
                to: members, from: nil, kind: .newGame, text: t("{league} has scheduled its season: see {team}'s fixtures.", league.name, team.name),
                link: SiteURL.league(slug: league.slug).path, on: db)
        }
    }
}
