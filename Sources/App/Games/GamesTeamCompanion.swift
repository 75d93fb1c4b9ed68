import FieldhouseKit
import Fluent
import Foundation

/// A team's games: they follow the team's settings, fill its page and its league's table.
extension Games: TeamCompanion {
    /// A team's games are for the same people as the team, and as private as it is.
    static func teamChanged(_ team: Team, on db: any Database) async throws {
        for game in try await Game.query(on: db).filter(\.$team.$id == team.requireID()).all() {
            game.privacy = team.privacy.rawValue
            game.sport = team.sport
            game.ageGroup = team.ageGroup
            game.gender = team.gender
            game.skill = team.skill
            game.placeForSearch()
            try await game.update(on: db)
        }
    }

    /// The next ten games that have not ended.
    static func upcomingGames(of team: Team, showPlace: Bool, now: Date, on db: any Database) async throws -> [GameCard] {
        let upcoming = try await Game.query(on: db).filter(\.$team.$id == team.requireID())
            .filter(\.$startsAt >= now.addingTimeInterval(-86_400)).sort(\.$startsAt).limit(11).all()
            .filter { $0.endsAt > now }.prefix(10)
        return try upcoming.map { game in
            GameCard(
                url: SiteURL.game(try game.requireID()).path, title: game.title(teamName: team.name), sport: game.sportLabel, team: nil,
                when: "\(GameTime.shortDay(game.startsAt, zone: game.timeZone)) · \(GameTime.range(game.startsAt, game.endsAt, zone: game.timeZone))",
                place: showPlace ? game.placeName : nil,
                status: game.isCancelled ? t("Cancelled") : game.subsOpen ? t("Substitutes wanted") : "",
                statusValue: game.isCancelled ? "cancelled" : "none", cancelled: game.isCancelled
            )
        }
    }

    /// Scores of the league's fixtures, by team slug. Results against teams not in the table are
    /// ignored by `Standings`.
    /// A fixture's away copy holds the same result from the other side, so only home games count,
    /// and only once both teams agree on it.
    static func leagueResults(of league: League, on db: any Database) async throws -> [Standings.Result] {
        let games = try await Game.query(on: db).filter(\.$league.$id == league.requireID())
            .filter(\.$status == .scheduled).filter(\.$homeScore != nil).filter(\.$awayScore != nil).all()
            .filter { $0.playsAway != true && $0.resultByTeamID == nil }
        let teamIDs = Set(games.compactMap { $0.$team.id } + games.compactMap { $0.$opponentTeam.id })
        guard !teamIDs.isEmpty else { return [] }
        let slugs = Dictionary(uniqueKeysWithValues: try await Team.query(on: db).filter(\.$id ~~ teamIDs).all().map { ($0.id!, $0.slug) })
        return games.compactMap { game in
            guard let home = game.$team.id.flatMap({ slugs[$0] }), let away = game.$opponentTeam.id.flatMap({ slugs[$0] }),
                let homeScore = game.homeScore, let awayScore = game.awayScore
            else { return nil }
            return Standings.Result(home: home, away: away, homeScore: homeScore, awayScore: awayScore)
        }
    }

    /// The season's fixtures in round and kick-off order, each its home game with the away copy's address.
    static func leagueFixtures(of league: League, on db: any Database) async throws -> [LeagueFixture] {
        let games = try await Game.query(on: db).filter(\.$league.$id == league.requireID()).filter(\.$fixtureID != nil)
            .sort(\.$leagueRound).sort(\.$startsAt).all()
        let copies = Dictionary(grouping: games, by: { $0.fixtureID })
        return games.filter { $0.playsAway != true }.compactMap { home in
            guard let away = copies[home.fixtureID]?.first(where: { $0.playsAway == true }), let homeTeam = home.$team.id, let awayTeam = away.$team.id,
                let homeID = home.id, let awayID = away.id
            else { return nil }
            let score = home.homeScore.flatMap { homeScore in home.awayScore.map { (home: homeScore, away: $0) } }
            return LeagueFixture(
                round: home.leagueRound ?? 0, home: homeTeam, away: awayTeam, startsAt: home.startsAt, timeZone: home.timeZone,
                homeGame: SiteURL.game(homeID).path, awayGame: SiteURL.game(awayID).path, score: score,
                isConfirmed: home.resultByTeamID == nil, isCancelled: home.isCancelled)
        }
    }
}
