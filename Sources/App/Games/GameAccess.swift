import FieldhouseKit
import Fluent
import Vapor

/// What one viewer may see and do with one game. Team games inherit their team's rules (a private
/// team's games exist only for its members); substitutes who claimed a place see what players see.
struct GameAccess {
    let game: Game
    let team: Team?
    let teamAccess: TeamAccess?
    let viewer: User?
    /// The viewer's own place in the game, if any.
    let player: GamePlayer?
    /// The request's time: whether the game is still to come.
    let now: Date
    /// The viewer runs the league a season's fixture belongs to.
    let isLeagueManager: Bool
    /// The viewer's invitation to this pick-up game, while they have no place in it.
    var invite: GameInvite? = nil

    var isTeamGame: Bool { game.kind == .team }
    var isMember: Bool { teamAccess?.isMember ?? false }
    /// The organiser of a pick-up game (a team game's are its managers, who may since have left).
    var isOrganiser: Bool { game.kind == .pickup && viewer?.id != nil && viewer?.id == game.$organiser.id }
    /// Managers of the team, or the organiser of a pick-up game.
    var canManage: Bool { isTeamGame ? (teamAccess?.canManage ?? false) : isOrganiser }
    /// Who changes when and where: a season's fixture belongs to both teams, so the home team's
    /// managers and the league's manager move it (both copies), not the visitors.
    var canMove: Bool { game.fixtureID == nil ? canManage : isLeagueManager || (canManage && game.playsAway != true) }
    /// A team game's answer counts only from a member or a substitute: someone who left keeps nothing.
    var holdsPlace: Bool {
        guard !isTeamGame || isMember || player?.isSub == true else { return false }
        return Self.holdsPlace(player?.status, isSub: player?.isSub ?? false)
    }

    /// On the list with a place (or a place in the queue): not someone who only asked to join.
    static func holdsPlace(_ status: GamePlayer.Status?, isSub: Bool) -> Bool {
        guard let status else { return false }
        return [.joined, .waitlisted, .offered, .going, .maybe].contains(status) || isSub
    }

    /// The one rule for a game's exact place (its name, pin and notes), used by the game page, every
    /// list of games and the calendar feeds: public games show it to everyone; protected ones to the
    /// team's members, the organiser and people holding a place. `privacy` is the team's for team
    /// games and the game's own for pick-up games.
    static func canSeeExactPlace(privacy: String, isMember: Bool, isOrganiser: Bool, holdsPlace: Bool) -> Bool {
        privacy == Team.Privacy.public.rawValue || isMember || isOrganiser || holdsPlace
    }

    var canSee: Bool {
        // An invitation lets someone see a private team, but not its games: those are for members.
        if let teamAccess { return (team?.privacy == .private ? teamAccess.isMember : teamAccess.canSee) || player?.isSub == true }
        // A private pick-up game grew out of a plan among friends: its players alone know of it.
        // The organiser's invitation lets its invitee see it, so they can join.
        if game.privacy == Team.Privacy.private.rawValue { return isOrganiser || player != nil || invite?.byOrganiser == true }
        return true
    }

    /// Who may ask someone to a pick-up game: its organiser, and people holding a place in a public
    /// or protected one (a private game's guest list is the organiser's).
    var canInvite: Bool {
        guard !isTeamGame, isUpcoming else { return false }
        return isOrganiser || (holdsPlace && game.privacy != Team.Privacy.private.rawValue)
    }

    /// Joining goes straight in (or onto the waitlist) without the organiser's approval: the
    /// organiser invited the viewer.
    var joinIsLetIn: Bool { invite?.byOrganiser == true }

    var canSeeRoster: Bool {
        if let teamAccess { return teamAccess.canSeeRoster || holdsPlace }
        return viewer != nil && (game.privacy == Team.Privacy.public.rawValue || isOrganiser || holdsPlace)
    }

    /// Protected games show only the area until the organiser (or the team) lets you in.
    var canSeeExactPlace: Bool {
        Self.canSeeExactPlace(privacy: team?.privacy.rawValue ?? game.privacy, isMember: isMember, isOrganiser: isOrganiser, holdsPlace: holdsPlace)
    }

    var isUpcoming: Bool { game.endsAt > now && !game.isCancelled }
    var canAnswer: Bool { isTeamGame && isMember && isUpcoming }
    var canJoin: Bool { !isTeamGame && viewer != nil && player == nil && !isOrganiser && isUpcoming }
    var canClaimSub: Bool {
        isTeamGame && viewer != nil && !isMember && player == nil && game.subsOpen && isUpcoming && team?.privacy != .private
    }

    /// Loads the game in the URL for the current viewer, or 404 when they may not know it exists.
    static func load(_ req: Request) async throws -> GameAccess {
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let game = try await Game.find(id, on: req.db)
        else { throw Abort(.notFound) }
        let access = try await of(game, viewer: req.currentUser, now: req.now, on: req.db)
        guard access.canSee else { throw Abort(.notFound) }
        return access
    }

    static func of(_ game: Game, viewer: User?, now: Date, on db: any Database) async throws -> GameAccess {
        var team: Team?
        var teamAccess: TeamAccess?
        if let teamID = game.$team.id {
            team = try await Team.find(teamID, on: db)
            guard let team else { throw Abort(.notFound) }
            teamAccess = try await TeamAccess.of(team, viewer: viewer, on: db)
        }
        var player: GamePlayer?
        if let viewerID = viewer?.id {
            player = try await GamePlayer.query(on: db).filter(\.$game.$id == game.requireID()).filter(\.$user.$id == viewerID).first()
        }
        var isLeagueManager = false
        if game.fixtureID != nil, let leagueID = game.$league.id, let viewerID = viewer?.id {
            isLeagueManager = try await League.find(leagueID, on: db)?.$manager.id == viewerID
        }
        var access = GameAccess(game: game, team: team, teamAccess: teamAccess, viewer: viewer, player: player, now: now, isLeagueManager: isLeagueManager)
        if game.kind == .pickup, player == nil, let viewerID = viewer?.id {
            access.invite = try await GameInvite.query(on: db).filter(\.$game.$id == game.requireID()).filter(\.$invitee.$id == viewerID).first()
        }
        return access
    }

    func requireManager() throws {
        guard canManage else {
            throw Abort(.forbidden, reason: isTeamGame ? t("Only the team's managers can do that.") : t("Only the organiser can do that."))
        }
    }

    func requireMover() throws {
        guard canMove else {
            throw Abort(.forbidden, reason: t("Only the home team's managers or the league's manager can move this fixture."))
        }
    }

    /// Age groups are enforced for people who play (a 30-year-old cannot join an under-16 game);
    /// the other attributes describe the game and are left to people's judgement.
    func requireAgeFits(_ user: User) throws {
        let group = AgeGroup(rawValue: game.ageGroup) ?? .any
        guard user.fits(group, today: LocalTime.utcDay(of: now)) else {
            throw Abort(.forbidden, reason: t("This game is for the age group {group}.", group.label))
        }
    }
}
