import Fluent
import Foundation

/// Leaving a team, or being removed, takes away its games at once: answers and places go.
extension Games: MembershipObserver {
    static func membershipEnded(userID: UUID, teamID: UUID, on db: any Database) async throws {
        try await GameRoster.forgetAnswers(of: userID, inTeam: teamID, on: db)
    }
}
