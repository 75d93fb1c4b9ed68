/// A league table from recorded results: 3 points for a win, 1 for a draw, 0 for a loss.
public enum Standings {
    public struct Result: Sendable {
        public let home: String
        public let away: String
        public let homeScore: Int
        public let awayScore: Int

        public init(home: String, away: String, homeScore: Int, awayScore: Int) {
            self.home = home
            self.away = away
            self.homeScore = homeScore
            self.awayScore = awayScore
        }
    }

    public struct Row: Equatable, Sendable {
        public let team: String
        public var played = 0, won = 0, drawn = 0, lost = 0
        public var pointsFor = 0, pointsAgainst = 0
        public var points: Int { won * 3 + drawn }
        public var difference: Int { pointsFor - pointsAgainst }

        public init(team: String) { self.team = team }
    }

    /// Every team appears, played or not; ordered by points, then difference, then scored, then name.
    public static func table(teams: [String], results: [Result]) -> [Row] {
        var rows = Dictionary(uniqueKeysWithValues: teams.map { ($0, Row(team: $0)) })
        for result in results {
            guard rows[result.home] != nil, rows[result.away] != nil, result.home != result.away else { continue }
            record(&rows[result.home]!, scored: result.homeScore, conceded: result.awayScore)
            record(&rows[result.away]!, scored: result.awayScore, conceded: result.homeScore)
        }
        return rows.values.sorted {
            ($1.points, $1.difference, $1.pointsFor, $0.team) < ($0.points, $0.difference, $0.pointsFor, $1.team)
        }
    }

    private static func record(_ row: inout Row, scored: Int, conceded: Int) {
        row.played += 1
        row.pointsFor += scored
        row.pointsAgainst += conceded
        if scored > conceded { row.won += 1 } else if scored == conceded { row.drawn += 1 } else { row.lost += 1 }
    }
}
