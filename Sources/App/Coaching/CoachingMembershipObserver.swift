import Fluent
import Foundation

/// Coaching that came through a team (a coach asking every member) ends with the membership.
extension Coaching: MembershipObserver {
    static func membershipEnded(userID: UUID, teamID: UUID, on db: any Database) async throws {
        try await CoachGrant.query(on: db).filter(\.$teamID == teamID)
            .group(.or) { $0.filter(\.$coach.$id == userID).filter(\.$athlete.$id == userID) }.delete()
    }
}
