import FieldhouseKit
import Fluent
import Foundation

/// A league's season: its rounds planned from the season form, and each fixture made a game of both
/// its teams. The season page and the demo data both make seasons this way.
enum Season {
    struct Fixture {
        let home: Team
        let away: Team
        let startsAt: Date
    }

    struct Round {
        let number: Int
        let startsAt: Date
        let fixtures: [Fixture]
        let bye: Team?
    }

    /// The season's rounds, one a week, with the teams in name order numbered for the circle method.
    static func plan(_ valid: SeasonForm.Valid, teams: [Team]) -> [Round] {
        RoundRobin.rounds(teams: teams.count, double: valid.double).enumerated().compactMap { index, round in
            // The weekday's wall-clock time exists every week (a skipped hour moves forward), so this holds.
            guard let start = valid.start(ofRound: index) else { return nil }
            return Round(
                number: index + 1, startsAt: start,
                fixtures: round.pairings.map { Fixture(home: teams[$0.home], away: teams[$0.away], startsAt: start) },
                bye: round.bye.map { teams[$0] })
        }
    }

    /// Makes every fixture of `rounds`, in the caller's transaction.
    static func create(_ rounds: [Round], league: League, organiser: UUID, valid: SeasonForm.Valid, on db: any Database) async throws {
        for round in rounds {
            for fixture in round.fixtures {
                try await makeFixture(fixture, round: round.number, league: league, organiser: organiser, valid: valid, on: db)
            }
        }
    }

    /// One fixture: a game for the home team at its ground, and its copy for the away team.
    private static func makeFixture(_ fixture: Fixture, round: Int, league: League, organiser: UUID, valid: SeasonForm.Valid, on db: any Database) async throws
    {
        let fixtureID = UUID()
        for (team, opponent, away) in [(fixture.home, fixture.away, false), (fixture.away, fixture.home, true)] {
            let game = Game()
            game.kind = .team
            game.$team.id = try team.requireID()
            game.$league.id = try league.requireID()
            game.$opponentTeam.id = try opponent.requireID()
            game.opponentName = opponent.name
            game.fixtureID = fixtureID
            game.leagueRound = round
            game.playsAway = away
            game.$organiser.id = organiser
            game.sport = team.sport
            game.ageGroup = team.ageGroup
            game.gender = team.gender
            game.skill = team.skill
            game.privacy = team.privacy.rawValue
            game.schedule(at: fixture.startsAt)
            game.durationMinutes = valid.durationMinutes
            game.timeZone = valid.timeZone
            // The home team's ground for both copies: the away team travels there.
            game.placeName = fixture.home.placeName
            game.latitude = fixture.home.latitude
            game.longitude = fixture.home.longitude
            game.description = ""
            game.joinedCount = 0
            game.subsNeeded = 0
            game.subsFilled = 0
            game.status = .scheduled
            game.sequence = 0
            game.placeForSearch()
            try await game.create(on: db)
        }
    }
}
