import Fluent
import Foundation

extension Challenges {
    /// Challenge points (see `Scoreboard`).
    static func profileParts(of userID: UUID, on db: any Database) async throws -> ProfileParts {
        let score = try await Scoreboard.score(of: userID, on: db)
        return ProfileParts(counts: [
            ProfileParts.Count(number: String(score), label: tn("challenge points", "challenge points", score), url: SiteURL.scoreboard.path)
        ])
    }
}
