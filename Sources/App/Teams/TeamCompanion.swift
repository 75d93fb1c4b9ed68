import FieldhouseKit
import Fluent
import Foundation

/// A feature that keeps things belonging to a team (Games: its fixtures). Teams asks every feature
/// that adopts this, so it never names the features built on it.
protocol TeamCompanion {
    /// The team's details changed (privacy, sport, level, age group, gender): what belongs to the
    /// team follows, in the same transaction.
    static func teamChanged(_ team: Team, on db: any Database) async throws

    /// What the team page lists as its next games, soonest first; exact places only when `showPlace`.
    static func upcomingGames(of team: Team, showPlace: Bool, now: Date, on db: any Database) async throws -> [GameCard]

    /// Scores of the league's fixtures, for its table.
    static func leagueResults(of league: League, on db: any Database) async throws -> [Standings.Result]

    /// The league's season, as scheduled fixtures with their results, for its page.
    static func leagueFixtures(of league: League, on db: any Database) async throws -> [LeagueFixture]

    /// Members recording now whom `viewer` (a member) may watch live.
    static func liveNow(in team: Team, members: [UUID], viewer: User, now: Date, on db: any Database) async throws -> [LiveNowCard]
}

extension TeamCompanion {
    static func teamChanged(_ team: Team, on db: any Database) async throws {}
    static func upcomingGames(of team: Team, showPlace: Bool, now: Date, on db: any Database) async throws -> [GameCard] { [] }
    static func leagueResults(of league: League, on db: any Database) async throws -> [Standings.Result] { [] }
    static func leagueFixtures(of league: League, on db: any Database) async throws -> [LeagueFixture] { [] }
    static func liveNow(in team: Team, members: [UUID], viewer: User, now: Date, on db: any Database) async throws -> [LiveNowCard] { [] }
}

/// One fixture of a league's season: the home team's game and the away team's copy of it, with the
/// score once recorded (home first).
struct LeagueFixture: Sendable {
    let round: Int
    let home: UUID
    let away: UUID
    let startsAt: Date
    let timeZone: String
    let homeGame: String
    let awayGame: String
    let score: (home: Int, away: Int)?
    /// Both teams agree on the score (it counts in the table); otherwise it waits for one of them.
    let isConfirmed: Bool
    let isCancelled: Bool
}

extension Features {
    static var teamCompanions: [any TeamCompanion.Type] {
        all.compactMap { $0 as? any TeamCompanion.Type }
    }
}
