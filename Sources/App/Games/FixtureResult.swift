import Fluent
import Foundation
import Vapor

/// A season fixture's result counts once both teams agree: one team's manager enters it, the other
/// team's manager confirms it, or corrects it, which sends it back to the first for confirmation.
/// Both copies of the fixture hold the result, each from its own team's side.
enum FixtureResult {
    enum Outcome {
        /// Waiting for the other team, whose managers were told.
        case pending
        /// Both teams agree: it counts in the table.
        case confirmed
    }

    /// Records `mine`–`theirs` from `game`'s team's side, in the caller's transaction. The same score
    /// the other team entered confirms it; any other waits for the other team.
    static func enter(mine: Int, theirs: Int, on game: Game, team: Team, by userID: UUID, on db: any Database) async throws -> Outcome {
        guard let twin = try await game.fixtureTwin(on: db), let otherTeam = try await twin.$team.get(on: db) else {
            throw Abort(.conflict, reason: t("The other team's game of this fixture is gone; the result cannot be checked."))
        }
        let teamID = try team.requireID()
        let agrees = game.resultByTeamID != nil && game.resultByTeamID != teamID && game.homeScore == mine && game.awayScore == theirs
        let pendingBy: UUID? = agrees ? nil : teamID
        for (copy, scores) in [(game, (mine, theirs)), (twin, (theirs, mine))] {
            copy.homeScore = scores.0
            copy.awayScore = scores.1
            copy.resultByTeamID = pendingBy
            try await copy.update(on: db)
        }
        guard !agrees else { return .confirmed }
        let score = "\(mine)–\(theirs)"
        try await Notification.send(
            to: try await Membership.managerIDs(of: otherTeam.requireID(), on: db).filter { $0 != userID }, from: nil, kind: .gameChanged,
            text: t("{team} entered the result of {game}: {score}. Please confirm or correct it.", team.name, game.title(teamName: team.name), score),
            link: SiteURL.game(try twin.requireID()).path, on: db)
        return .pending
    }

    /// The other team's manager agrees with the result waiting on `game`, in the caller's transaction.
    static func confirm(_ game: Game, team: Team, on db: any Database) async throws {
        guard let pendingBy = game.resultByTeamID, pendingBy != (try team.requireID()) else {
            throw Abort(.conflict, reason: t("No result is waiting for your team's confirmation."))
        }
        let twin = try await game.fixtureTwin(on: db)
        for copy in [game] + (twin.map { [$0] } ?? []) {
            copy.resultByTeamID = nil
            try await copy.update(on: db)
        }
    }
}
