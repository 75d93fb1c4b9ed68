import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Everything the game page shows, limited to what the viewer may see and do.
struct GamePage: Encodable {
    struct Entry: Encodable {
        let username: String
        let displayName: String
        let profileURL: String?
        let status: String
        let statusValue: String
        let note: String?
        let isSub: Bool
        /// Place on the waitlist, from 1.
        let position: Int?
        let isYou: Bool
    }

    struct Count: Encodable {
        let label: String
        let value: Int
    }

    struct LinkTo: Encodable {
        let url: String
        let name: String
    }

    let layout: Layout
    let id: String
    let title: String
    let isTeamGame: Bool
    let sport: String
    let level: String
    let privacy: String
    let day: String
    let time: String
    let duration: String
    let cancelled: Bool
    let isPast: Bool
    let place: String?
    let mapURL: String?
    let distance: String?
    /// A map of the exact place (SVG), for those who may know it; empty otherwise.
    var map = ""
    /// One of a team's weekly sessions: "Every Tuesday until 23 Dec", and the next session still on
    /// (set by `showSeries`).
    var repeats: String?
    var nextSession: LinkTo?
    /// Sessions after this one are still on: a change or a cancellation may reach them too.
    var hasFollowing = false
    let description: String
    let team: LinkTo?
    /// Where the person came from (their games, a search's results, the team), else the team or
    /// their games.
    let back: BackLink
    let opponent: LinkTo?
    let opponentName: String?
    let score: String?
    let counts: [Count]
    let capacity: Int?
    let minPlayers: Int?
    let joined: Int
    let roster: [Entry]?
    let noAnswer: [Entry]
    let subsNeeded: Int
    let subsFilled: Int
    let subsOpen: Bool
    let subsWanted: Int
    // The viewer
    let signInURL: String?
    let yourStatus: String?
    let yourStatusValue: String?
    let yourNote: String
    let yourPosition: Int?
    /// A place held for the viewer from the waitlist: until when, in the venue's time.
    let yourOfferUntil: String?
    let isSub: Bool
    let canAnswer: Bool
    let canJoin: Bool
    let joinWillWait: Bool
    let joinNeedsApproval: Bool
    let canLeave: Bool
    let canClaimSub: Bool
    let canManage: Bool
    /// Moving a season's fixture is for the home team's managers and the league's manager.
    let canMove: Bool
    let canRecordResult: Bool
    /// A fixture's score waiting for a team's confirmation: that team's name.
    let resultWaitsFor: String?
    /// The viewer manages the team the score waits for.
    let canConfirmResult: Bool
    /// The game's conversation (`Messages`), for its organiser, players and team.
    let conversationURL: String?
    let answers: [SelectOption]
    /// The viewer may ask someone to this pick-up game; the people they might ask, by username.
    let canInvite: Bool
    let inviteSuggestions: [String]
    /// Who invited the viewer, while they have no place yet.
    let invitedBy: String?
    var inviteTyped = ""
    var errors = FieldErrors()

    /// What the page says of the weekly series `game` belongs to, if any (one query, for a series only).
    mutating func showSeries(of game: Game, on db: any Database) async throws {
        guard let series = try await GameSeries.summary(of: game, on: db) else { return }
        repeats = series.text
        nextSession = try series.next.map {
            LinkTo(url: SiteURL.game(try $0.requireID()).path, name: GameTime.shortDay($0.startsAt, zone: $0.timeZone))
        }
        hasFollowing = series.hasFollowing
    }

    struct PlayerRow {
        let user: User
        let status: GamePlayer.Status
        let note: String?
        let isSub: Bool
    }

    /// Players and their answers in one plain-SQL query, waitlist in queue order.
    static func players(of gameID: UUID, on db: any Database) async throws -> [PlayerRow] {
        let rows = try await db.sql.raw(
            """
            SELECT p.status, p.note, p.is_sub, u.id, u.username, u.display_name, u.visibility, u.birth_date
            FROM game_players p JOIN users u ON u.id = p.user_id
            WHERE p.game_id = \(bind: gameID) ORDER BY p.queued_at, p.id
            """
        ).all()
        return try rows.map { row in
            let user = try User.forPolicy(row)
            return PlayerRow(
                user: user, status: GamePlayer.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .maybe,
                note: try row.decode(column: "note", as: String?.self), isSub: try row.decode(column: "is_sub", as: Bool.self)
            )
        }
    }

    static func build(_ access: GameAccess, req: Request) async throws -> GamePage {
        let game = access.game
        let gameID = try game.requireID()
        let viewer = req.currentUser
        let players = try await Self.players(of: gameID, on: req.db)
        var members: [User] = []
        if let teamID = game.$team.id, access.canSeeRoster {
            members = try await TeamPage.roster(of: teamID, on: req.db).map(\.user)
        }
        let answered = Set(players.compactMap(\.user.id))
        let unanswered = members.filter { !answered.contains($0.id!) }

        let relations = try await Relations.load(
            viewer: viewer, people: (players.map(\.user) + unanswered).compactMap(\.id), today: req.clock.today, on: req.db)
        var waitPosition = 0
        func entry(_ user: User, status: GamePlayer.Status?, note: String?, isSub: Bool) -> Entry {
            var position: Int?
            if status == .waitlisted { waitPosition += 1; position = waitPosition }
            let relation = relations.relation(to: user)
            // A child on a public game's list is "a player under 16" to those outside their teams; the organiser sees the name.
            let name = access.canManage ? user.displayName : PersonAccess.listedName(user, relation)
            let requested = status == .requested && access.canManage
            return Entry(
                username: name == nil ? "" : user.username,
                displayName: (name ?? PersonAccess.childOnAList)
                    + (requested ? " · " + t("age {group}", user.ageGroup(on: req.clock.today)?.label ?? t("age unknown")) : ""),
                profileURL: name != nil && PersonAccess.canSeeExists(user, relation) ? SiteURL.person(username: user.username).path : nil,
                status: status?.label ?? t("No answer"), statusValue: status?.rawValue ?? "none",
                note: note, isSub: isSub, position: position, isYou: user.id == viewer?.id
            )
        }
        let everyone = players.map { entry($0.user, status: $0.status, note: $0.note, isSub: $0.isSub) }
        // Organisers see requests; others see only who holds a place or is waiting.
        let visibleRoster = everyone.filter { $0.statusValue != GamePlayer.Status.requested.rawValue || access.canManage || $0.isYou }

        var counts: [Count]
        if access.isTeamGame {
            counts = GamePlayer.Status.answers.map { status in
                let value = players.filter { $0.status == status }.count
                return Count(label: status.counted(value), value: value)
            }
            if access.canSeeRoster { counts.append(Count(label: tn("No answer", "No answer", unanswered.count), value: unanswered.count)) }
        } else {
            counts = [GamePlayer.Status.joined, .offered, .waitlisted, .requested].compactMap { status -> Count? in
                let value = players.filter { $0.status == status }.count
                return value > 0 || status != .offered ? Count(label: status.counted(value), value: value) : nil
            }
        }

        let shownPlace = PlaceView(
            name: game.placeName, coordinate: game.coordinate, exact: access.canSeeExactPlace,
            hiddenNote: t("the exact place is shown once you're in"))
        var distance: String?
        if let coordinate = game.coordinate, let viewer, let lat = viewer.homeLat, let lon = viewer.homeLon {
            let shown = access.canSeeExactPlace ? coordinate : PlaceView.area(of: coordinate)
            let metres = Geo.distance(Coordinate(latitude: lat, longitude: lon), shown)
            distance = t("{distance} from your home area", Format.proximity(metres, imperial: viewer.units == .imperial))
        }

        var opponent: LinkTo?
        if let opponentID = game.$opponentTeam.id, let other = try await Team.find(opponentID, on: req.db),
            try await TeamAccess.of(other, viewer: viewer, on: req.db).canSee
        {
            opponent = LinkTo(url: SiteURL.team(slug: other.slug).path, name: other.name)
        }
        var score: String?
        if let home = game.homeScore, let away = game.awayScore {
            let homeName = access.team?.name ?? t("Home"), awayName = game.opponentName ?? t("Away")
            score = "\(homeName) \(home)–\(away) \(awayName)"
        }

        let mine = access.player
        var invitedBy: String?
        if let invite = access.invite, let inviter = try await User.find(invite.$inviter.id, on: req.db) {
            let relation = try await Relations.load(viewer: viewer, people: [inviter.requireID()], today: req.clock.today, on: req.db).relation(to: inviter)
            invitedBy = PersonAccess.knownName(of: inviter, relation) ?? t("Someone")
        }
        let suggestions = access.canInvite ? try await inviteSuggestions(for: viewer, excluding: answered.union([game.$organiser.id]), on: req.db) : []
        let position = mine?.status == .waitlisted ? visibleRoster.first(where: \.isYou)?.position : nil
        let title = game.title(teamName: access.team?.name)
        let myGames = BackLink(.games, t("My games"))
        let leadsHere =
            (access.team.map { [BackLink(.team(slug: $0.slug), $0.name)] } ?? [])
            + [myGames, BackLink(.find, t("Find a game")), BackLink(.home, t("Home"))]
        return GamePage(
            layout: req.layout(title: title, section: .games),
            id: SiteURL.id(gameID), title: title, isTeamGame: access.isTeamGame,
            sport: game.sportLabel,
            level: levelLabel(ageGroup: game.ageGroup, gender: game.gender, skill: game.skill),
            privacy: Team.Privacy(rawValue: game.privacy)?.shortLabel ?? "",
            day: GameTime.day(game.startsAt, zone: game.timeZone),
            time: GameTime.range(game.startsAt, game.endsAt, zone: game.timeZone),
            duration: Format.hoursAndMinutes(game.durationMinutes),
            cancelled: game.isCancelled, isPast: game.endsAt <= req.now,
            place: shownPlace.text, mapURL: shownPlace.mapURL, distance: distance, map: shownPlace.map(tiles: req.application.mapTiles),
            // The organiser's notes often say exactly where ("court 2, behind the hall"): the place's rule.
            description: access.canSeeExactPlace ? game.description : "",
            team: access.team.map { LinkTo(url: SiteURL.team(slug: $0.slug).path, name: $0.name) },
            back: BackLink.back(on: req, to: leadsHere[0], from: leadsHere),
            opponent: opponent, opponentName: game.opponentName, score: score,
            counts: counts, capacity: game.capacity, minPlayers: game.minPlayers, joined: game.joinedCount,
            roster: access.canSeeRoster ? visibleRoster : nil,
            noAnswer: access.canManage ? unanswered.map { entry($0, status: nil, note: nil, isSub: false) } : [],
            subsNeeded: game.subsNeeded, subsFilled: game.subsFilled, subsOpen: game.subsOpen,
            subsWanted: max(0, game.subsNeeded - game.subsFilled),
            signInURL: viewer == nil ? SiteURL.login(next: .game(gameID)) : nil,
            yourStatus: mine?.status.label, yourStatusValue: mine?.status.rawValue, yourNote: mine?.note ?? "",
            yourPosition: position,
            yourOfferUntil: mine?.status == .offered && !game.isCancelled
                ? mine?.offerUntil.map { GameRoster.offerDeadline(offered: $0, startsAt: game.startsAt) }.flatMap { until in
                    until > req.now ? t("{day} at {time}", GameTime.shortDay(until, zone: game.timeZone), GameTime.clock(until, zone: game.timeZone)) : nil
                } : nil,
            isSub: mine?.isSub ?? false,
            canAnswer: access.canAnswer, canJoin: access.canJoin,
            joinWillWait: game.isFull, joinNeedsApproval: game.privacy == Team.Privacy.protected.rawValue && !access.joinIsLetIn,
            canLeave: mine != nil && access.isUpcoming && !access.isTeamGame || (mine?.isSub ?? false) && access.isUpcoming,
            canClaimSub: access.canClaimSub,
            canManage: access.canManage && !game.isCancelled,
            canMove: access.canMove && !game.isCancelled,
            canRecordResult: access.canManage && access.isTeamGame && game.startsAt <= req.now && !game.isCancelled,
            resultWaitsFor: game.resultByTeamID.map { $0 == game.$team.id ? game.opponentName ?? t("Away") : access.team?.name ?? t("Home") },
            canConfirmResult: access.canManage && !game.isCancelled && game.resultByTeamID != nil && game.resultByTeamID != game.$team.id,
            conversationURL: access.isOrganiser || access.isMember || access.player != nil
                ? SiteURL.gameConversation(try game.requireID()).path : nil,
            answers: GamePlayer.Status.answers.map { SelectOption(value: $0.rawValue, label: $0.label) },
            canInvite: access.canInvite && !game.isCancelled, inviteSuggestions: suggestions, invitedBy: invitedBy
        )
    }

    /// The usernames offered in the invitation field: people the viewer follows or who follow them
    /// (accepted both), not on the list yet. Only a hint: the form checks who may be reached.
    static func inviteSuggestions(for viewer: User?, excluding: Set<UUID>, on db: any Database) async throws -> [String] {
        guard let viewerID = viewer?.id else { return [] }
        struct Row: Decodable {
            let id: UUID
            let username: String
        }
        let rows = try await db.sql.raw(
            """
            SELECT DISTINCT u.id, u.username FROM follows f JOIN users u
              ON u.id = CASE WHEN f.follower_id = \(bind: viewerID) THEN f.followee_id ELSE f.follower_id END
            WHERE (f.follower_id = \(bind: viewerID) OR f.followee_id = \(bind: viewerID)) AND f.status = \(bind: Follow.Status.accepted.rawValue)
            ORDER BY u.username LIMIT 200
            """
        ).all(decoding: Row.self)
        return rows.filter { !excluding.contains($0.id) && $0.id != viewerID }.map(\.username)
    }
}
