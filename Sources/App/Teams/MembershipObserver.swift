import Fluent
import Foundation

/// A feature that keeps something a team membership gave (answers to the team's games, coaching
/// that came through the team) and must end it with the membership. Teams calls every feature
/// that adopts this, so it never names the features that build on it.
protocol MembershipObserver {
    /// Called in the transaction that ends the membership, after its row is gone.
    static func membershipEnded(userID: UUID, teamID: UUID, on db: any Database) async throws
}

extension Features {
    static var membershipObservers: [any MembershipObserver.Type] {
        all.compactMap { $0 as? any MembershipObserver.Type }
    }
}
