import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Scheduling games: a team's fixtures and pick-up games, editing, cancelling, results, and the
/// game page.
struct GameController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(TeamPath.newTeamGame, use: newTeamGamePage)
        routes.post(TeamPath.newTeamGame, use: createTeamGame)
        routes.get(GamePath.newGame, use: newPickupPage)
        routes.post(GamePath.newGame, use: createPickup)
        routes.get(GamePath.game, use: show)
        routes.get(GamePath.editGame, use: editPage)
        routes.post(GamePath.editGame, use: update)
        routes.post(GamePath.cancel, use: cancel)
        routes.post(GamePath.result, use: recordResult)
        routes.post(GamePath.confirmResult, use: confirmResult)
    }

    struct FormPage: Encodable {
        let layout: Layout
        let kind: String
        let form: GameForm
        let errors: FieldErrors
        let choices: Choices
        let timeZones: [String]
        let opponents: [SelectOption]
        let teamName: String?
        let action: String
        let submit: String
        let cancelURL: String
        /// A new team game may repeat weekly (`GameSeries`).
        let canRepeat: Bool
        /// Editing a session with sessions after it: the change may reach them too.
        let inSeries: Bool
    }

    private func render(
        _ req: Request, kind: Game.Kind, form: GameForm, errors: FieldErrors, team: Team?,
        game: Game?, opponents: [SelectOption], inSeries: Bool = false
    ) async throws -> Response {
        let title = game != nil ? t("Edit game") : kind == .team ? t("New game for {team}", team?.name ?? "") : t("Organise a pick-up game")
        let page = FormPage(
            layout: req.layout(title: title, section: .games), kind: kind.rawValue, form: form, errors: errors,
            choices: Choices(), timeZones: Format.timeZoneIdentifiers, opponents: opponents, teamName: team?.name,
            action: game.map { SiteURL.editGame($0.id!).path } ?? (team.map { SiteURL.newTeamGame(slug: $0.slug).path } ?? SiteURL.newGame.path),
            submit: game == nil ? (kind == .team ? t("Schedule game") : t("Create game")) : t("Save changes"),
            cancelURL: game.map { SiteURL.game($0.id!).path } ?? (team.map { SiteURL.team(slug: $0.slug).path } ?? SiteURL.games.path),
            canRepeat: game == nil && kind == .team, inSeries: inSeries
        )
        return try await req.view.render("games/form", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    /// Teams this team may play as a league fixture: the other active teams of its leagues.
    private func leagueOpponents(of team: Team, on db: any Database) async throws -> [(team: Team, leagueID: UUID)] {
        let teamID = try team.requireID()
        let leagues = try await LeagueTeam.query(on: db).filter(\.$team.$id == teamID).filter(\.$status == .active).all().map { $0.$league.id }
        guard !leagues.isEmpty else { return [] }
        let entries = try await LeagueTeam.query(on: db).filter(\.$league.$id ~~ leagues).filter(\.$status == .active)
            .filter(\.$team.$id != teamID).with(\.$team).all()
        return entries.map { ($0.team, $0.$league.id) }.sorted { $0.team.name < $1.team.name }
    }

    private func opponentOptions(_ list: [(team: Team, leagueID: UUID)]) -> [SelectOption] {
        list.map { SelectOption(value: $0.team.slug, label: $0.team.name) }
    }

    // MARK: Team games

    func newTeamGamePage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        return try await render(
            req, kind: .team, form: GameForm(team: access.team, zone: user.timeZone, now: req.now), errors: [:],
            team: access.team, game: nil, opponents: opponentOptions(try await leagueOpponents(of: access.team, on: req.db)))
    }

    func createTeamGame(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let team = access.team
        let form = try req.content.decode(GameForm.self)
        let opponents = try await leagueOpponents(of: team, on: req.db)
        var (valid, errors) = form.validate(kind: .team, now: req.now)
        let starts = GameSeries.starts(form, errors: &errors)
        if starts == nil, errors["repeats"] != nil || errors["until"] != nil { valid = nil }
        let fixture = valid?.opponentTeamSlug.flatMap { slug in opponents.first { $0.team.slug == slug } }
        if valid?.opponentTeamSlug != nil, fixture == nil { errors["opponent_team"] = t("Choose a team of your league from the list"); valid = nil }
        if fixture != nil, (starts?.count ?? 1) > 1 { errors["repeats"] = t("A league game is played once: it cannot repeat"); valid = nil }
        guard let valid, let starts, let first = starts.first else {
            return try await render(req, kind: .team, form: form, errors: errors, team: team, game: nil, opponents: opponentOptions(opponents))
        }
        let seriesID = starts.count > 1 ? UUID() : nil
        let games = try starts.map { start in
            var session = valid
            session.startsAt = start
            return try Self.newTeamGame(team: team, organiser: user, valid: session, fixture: fixture, series: seriesID)
        }
        let game = games[0]
        let members = try await Membership.query(on: req.db).filter(\.$team.$id == team.requireID()).all().map { $0.$user.id }
        try await req.db.inTransaction { db in
            for session in games { try await session.create(on: db) }
            // A series is news once, not once a week.
            try await Notification.send(
                to: members.filter { $0 != user.id }, from: nil, kind: .newGame,
                text: starts.count > 1
                    ? t(
                        "New weekly sessions for {team}: {repeats}, at {time}, from {day}", team.name,
                        Format.everyWeekdayUntil(
                            LocalTime.day(of: first, zone: valid.timeZone).weekday, until: LocalTime.day(of: starts[starts.count - 1], zone: valid.timeZone)),
                        GameTime.clock(first, zone: valid.timeZone), GameTime.shortDay(first, zone: valid.timeZone))
                    : t(
                        "New game for {team}: {day} at {time}", team.name, GameTime.shortDay(game.startsAt, zone: game.timeZone),
                        GameTime.clock(game.startsAt, zone: game.timeZone)),
                link: SiteURL.game(game.id!).path, on: db
            )
        }
        req.flash(
            .success,
            games.count > 1
                ? tn(
                    "{count} weekly session scheduled; every member has been told.", "{count} weekly sessions scheduled; every member has been told.",
                    games.count)
                : t("Game scheduled; every member has been told."))
        return req.redirect(to: .game(game.id!))
    }

    /// One team game (or one session of a weekly series) as the form decided, not yet saved.
    private static func newTeamGame(team: Team, organiser: User, valid: GameForm.Valid, fixture: (team: Team, leagueID: UUID)?, series: UUID?) throws -> Game {
        let game = Game()
        game.kind = .team
        game.$team.id = try team.requireID()
        game.$organiser.id = try organiser.requireID()
        game.sport = team.sport
        game.ageGroup = team.ageGroup
        game.gender = team.gender
        game.skill = team.skill
        game.privacy = team.privacy.rawValue
        game.joinedCount = 0
        game.subsNeeded = 0
        game.subsFilled = 0
        game.status = .scheduled
        game.sequence = 0
        game.seriesID = series
        game.apply(valid, fixture: fixture)
        return game
    }

    // MARK: Pick-up games

    func newPickupPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        var form = GameForm(zone: user.timeZone, now: req.now)
        form.place_name = user.homeName
        form.latitude = user.homeLat.map(FormNumber.text)
        form.longitude = user.homeLon.map(FormNumber.text)
        // "Organise a game here" from a place's page: its name, position and zone, checked like any
        // other typing when the form is sent.
        if let venue = req.query[String.self, at: "venue"], let lat = req.query[Double.self, at: "lat"], let lon = req.query[Double.self, at: "lon"],
            Coordinate(latitude: lat, longitude: lon).isValid
        {
            form.place_name = String(venue.prefix(120))
            form.latitude = FormNumber.text(lat)
            form.longitude = FormNumber.text(lon)
            if let zone = req.query[String.self, at: "zone"], zone.count <= 64, TimeZone.known(zone) != nil { form.time_zone = zone }
        }
        return try await render(req, kind: .pickup, form: form, errors: [:], team: nil, game: nil, opponents: [])
    }

    func createPickup(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(GameForm.self)
        let (valid, errors) = form.validate(kind: .pickup, now: req.now)
        guard let valid else { return try await render(req, kind: .pickup, form: form, errors: errors, team: nil, game: nil, opponents: []) }
        let game = try await req.db.inTransaction { db in
            try await Game.createPickup(valid, organiser: user.requireID(), now: req.now, jobs: req.application.jobs, on: db)
        }
        req.flash(.success, t("Your game is listed. Share the link, or wait for people nearby to find it."))
        return req.redirect(to: .game(game.id!))
    }

    // MARK: Page

    func show(req: Request) async throws -> View {
        let access = try await GameAccess.load(req)
        var page = try await GamePage.build(access, req: req)
        try await page.showSeries(of: access.game, on: req.db)
        return try await req.view.render("games/show", page)
    }

    // MARK: Edit and cancel

    func editPage(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireMover()
        guard !access.game.isCancelled else { throw Abort(.conflict, reason: t("This game is cancelled.")) }
        let opponents = access.team == nil ? [] : try await leagueOpponents(of: access.team!, on: req.db)
        let slug = opponents.first { $0.team.id == access.game.$opponentTeam.id }?.team.slug
        let inSeries = !(try await GameSeries.following(access.game, on: req.db).isEmpty)
        return try await render(
            req, kind: access.game.kind, form: GameForm(game: access.game, opponentSlug: slug), errors: [:],
            team: access.team, game: access.game, opponents: opponentOptions(opponents), inSeries: inSeries)
    }

    func update(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireMover()
        let game = access.game
        guard !game.isCancelled else { throw Abort(.conflict, reason: t("This game is cancelled.")) }
        let form = try req.content.decode(GameForm.self)
        let opponents = access.team == nil ? [] : try await leagueOpponents(of: access.team!, on: req.db)
        var (valid, errors) = form.validate(
            kind: game.kind, previousStart: game.startsAt, allowsPrivate: game.privacy == Team.Privacy.private.rawValue, now: req.now)
        // A season's fixture keeps its two teams (`Game.apply`), so its form cannot be refused over them.
        if game.fixtureID != nil { valid?.opponentTeamSlug = opponents.first { $0.team.id == game.$opponentTeam.id }?.team.slug }
        let fixture = valid?.opponentTeamSlug.flatMap { slug in opponents.first { $0.team.slug == slug } }
        if valid?.opponentTeamSlug != nil, fixture == nil { errors["opponent_team"] = t("Choose a team of your league from the list"); valid = nil }
        if let capacity = valid?.capacity, capacity < game.joinedCount {
            errors["capacity"] = t("{count} people already have a place; remove some before lowering the limit", game.joinedCount)
            valid = nil
        }
        // "This and the following sessions": the ones after it in its series, found before it moves.
        let later = GameSeries.Scope(form.scope) == .following ? try await GameSeries.following(game, on: req.db) : []
        guard let valid else {
            return try await render(
                req, kind: game.kind, form: form, errors: errors, team: access.team, game: game, opponents: opponentOptions(opponents),
                inSeries: !(try await GameSeries.following(game, on: req.db).isEmpty))
        }
        let series = GameSeries.Before(game)
        let before = (game.startsAt, game.durationMinutes, game.placeName, game.latitude, game.longitude)
        game.apply(valid, fixture: fixture)
        let moved = before.0 != game.startsAt || before.2 != game.placeName || before.3 != game.latitude || before.4 != game.longitude
        let changed = moved || before.1 != game.durationMinutes
        if changed { game.sequence += 1 }
        let gameID = try game.requireID()
        try await req.db.inTransaction { db in
            try await game.update(on: db)
            if game.kind == .pickup { try await GameRoster.promoteWaiting(in: game, now: req.now, on: db) }
            let laterMoved = later.isEmpty ? [] : try await GameSeries.follow(game, before: series, later: later, on: db)
            guard moved || !laterMoved.isEmpty else { return }
            try await Self.tellMoved(game, team: access.team, except: user.id, later: laterMoved, on: db)
            // The other team's copy of a fixture moves with it, and its people hear the same.
            if let twin = try await game.fixtureTwin(on: db) {
                twin.follow(game)
                try await twin.update(on: db)
                try await Self.tellMoved(twin, team: try await twin.$team.get(on: db), except: user.id, on: db)
            }
        }
        req.flash(.success, Self.savedText(moved: moved, team: game.kind == .team, later: later.count))
        return req.redirect(to: .game(gameID))
    }

    private static func savedText(moved: Bool, team: Bool, later: Int) -> String {
        switch (moved, team, later) {
        case (true, true, 0): t("Saved. Members were told and asked to answer again.")
        case (true, true, _):
            tn(
                "Saved, with the {count} session after it. Members were told and asked to answer again.",
                "Saved, with the {count} sessions after it. Members were told and asked to answer again.", later)
        case (true, false, _): t("Saved. Players were told.")
        case (false, _, 0): t("Saved.")
        case (false, _, _): tn("Saved, with the {count} session after it.", "Saved, with the {count} sessions after it.", later)
        }
    }

    /// Tells everyone on a game that moved (and on the sessions `later` in its series that moved
    /// with it, in one notice), in the caller's transaction. Whoever holds a place hears of it
    /// whatever their settings; members of a team game answer again.
    private static func tellMoved(_ game: Game, team: Team?, except userID: UUID?, later: [Game] = [], on db: any Database) async throws {
        let gameID = try game.requireID()
        var holders = try await game.holders(on: db)
        var everyone = try await game.everyone(on: db)
        for session in [game] + later {
            // A new time or place is a new question: members answer again. Substitutes keep their places.
            if session.kind == .team {
                try await GamePlayer.query(on: db).filter(\.$game.$id == session.requireID()).filter(\.$isSub == false).delete()
            }
            guard session !== game else { continue }
            holders.formUnion(try await session.holders(on: db))
            everyone += try await session.everyone(on: db)
        }
        // The new place goes only to those the game page would show it to: not to people who only asked to join.
        let recipients = Array(Set(everyone)).filter { $0 != userID }
        let asking = Set(try await GamePlayer.query(on: db).filter(\.$game.$id == gameID).filter(\.$status == .requested).all().map { $0.$user.id })
        let placeShown = game.privacy == Team.Privacy.public.rawValue || (team?.privacy == .public)
        for (group, withPlace) in [(recipients.filter { !asking.contains($0) }, true), (recipients.filter { asking.contains($0) }, placeShown)]
        where !group.isEmpty {
            try await Notification.send(
                to: group, from: nil, kind: .gameChanged,
                text: later.isEmpty
                    ? Self.movedText(game, teamName: team?.name, place: withPlace ? game.placeName : nil)
                    : Self.seriesMovedText(game, teamName: team?.name, place: withPlace ? game.placeName : nil, later: later.count),
                link: SiteURL.game(gameID).path, always: holders, on: db
            )
        }
    }

    /// What people on a moved game are told, in each reader's language (called inside
    /// `Notification.send`'s `text:`): members of a team game are asked to answer again.
    private static func movedText(_ game: Game, teamName: String?, place: String?) -> String {
        let title = game.title(teamName: teamName)
        let day = GameTime.shortDay(game.startsAt, zone: game.timeZone), time = GameTime.clock(game.startsAt, zone: game.timeZone)
        switch (game.kind == .team, place) {
        case (true, let place?): return t("{game} moved to {day} at {time}, {place}. Please answer again.", title, day, time, place)
        case (true, nil): return t("{game} moved to {day} at {time}. Please answer again.", title, day, time)
        case (false, let place?): return t("{game} moved to {day} at {time}, {place}", title, day, time, place)
        case (false, nil): return t("{game} moved to {day} at {time}", title, day, time)
        }
    }

    /// A session moved with the ones after it in its series (team games only repeat).
    private static func seriesMovedText(_ game: Game, teamName: String?, place: String?, later: Int) -> String {
        let title = game.title(teamName: teamName)
        let day = GameTime.shortDay(game.startsAt, zone: game.timeZone), time = GameTime.clock(game.startsAt, zone: game.timeZone)
        guard let place else {
            return tn(
                "{game} moved to {day} at {time}, with the {count} session after it. Please answer again.",
                "{game} moved to {day} at {time}, with the {count} sessions after it. Please answer again.", later, title, day, time)
        }
        return tn(
            "{game} moved to {day} at {time}, {place}, with the {count} session after it. Please answer again.",
            "{game} moved to {day} at {time}, {place}, with the {count} sessions after it. Please answer again.", later, title, day, time, place)
    }

    func cancel(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        let game = access.game
        guard !game.isCancelled else { return req.redirect(to: .game(game.id!)) }
        struct Confirm: Content {
            var confirm: String?
            var scope: String?
        }
        let confirm = try req.content.decode(Confirm.self)
        guard confirm.confirm == "yes" else {
            throw Abort(.unprocessableEntity, reason: t("Tick “Yes, cancel it” to confirm; nothing was changed."))
        }
        if GameSeries.Scope(confirm.scope) == .following, game.seriesID != nil {
            try await req.db.inTransaction { db in
                try await GameSeries.cancel(from: game, by: user.requireID(), teamName: access.team?.name, on: db)
            }
            req.flash(.info, t("This session and the ones after it are cancelled, and everyone has been told."))
            return req.redirect(to: .game(game.id!))
        }
        try await req.db.inTransaction { db in try await game.cancel(by: user.requireID(), teamName: access.team?.name, on: db) }
        req.flash(.info, t("The game is cancelled and everyone has been told."))
        return req.redirect(to: .game(game.id!))
    }

    // MARK: Results

    struct ResultForm: Content {
        var home_score: String?
        var away_score: String?
    }

    func recordResult(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        let game = access.game
        guard game.kind == .team else { throw Abort(.unprocessableEntity, reason: t("Scores are kept for team games only.")) }
        guard !game.isCancelled else { throw Abort(.conflict, reason: t("This game is cancelled.")) }
        guard game.startsAt <= req.now else { throw Abort(.unprocessableEntity, reason: t("The score can be recorded once the game has started.")) }
        let form = try req.content.decode(ResultForm.self)
        func score(_ text: String?) -> Int? { Int((text ?? "").trimmingCharacters(in: .whitespaces)).flatMap { (0...999).contains($0) ? $0 : nil } }
        guard let home = score(form.home_score), let away = score(form.away_score) else {
            throw Abort(.unprocessableEntity, reason: t("Enter both scores as whole numbers from 0 to 999."))
        }
        if game.fixtureID != nil, let team = access.team {
            let outcome = try await req.db.inTransaction { db in
                try await FixtureResult.enter(mine: home, theirs: away, on: game, team: team, by: user.requireID(), on: db)
            }
            switch outcome {
            case .pending: req.flash(.success, t("Score saved. It counts in the table once the other team's manager confirms it."))
            case .confirmed: req.flash(.success, t("Score confirmed; the league table is updated."))
            }
            return req.redirect(to: .game(game.id!))
        }
        game.homeScore = home
        game.awayScore = away
        try await game.update(on: req.db)
        req.flash(.success, game.$league.id != nil ? t("Score saved; the league table is updated.") : t("Score saved."))
        return req.redirect(to: .game(game.id!))
    }

    func confirmResult(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        let game = access.game
        guard game.fixtureID != nil, let team = access.team else { throw Abort(.notFound) }
        try await req.db.inTransaction { db in try await FixtureResult.confirm(game, team: team, on: db) }
        req.flash(.success, t("Score confirmed; the league table is updated."))
        return req.redirect(to: .game(game.id!))
    }
}
