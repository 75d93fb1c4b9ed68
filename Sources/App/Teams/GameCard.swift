import Foundation

/// A game in a list (My games, a team's fixtures, the dashboard). Declared here, below Games,
/// because the team page lists the team's games (`TeamCompanion.upcomingGames`).
struct GameCard: Encodable {
    let url: String
    let title: String
    let sport: String
    let team: String?
    let when: String
    let place: String?
    let status: String
    let statusValue: String
    let cancelled: Bool
}
