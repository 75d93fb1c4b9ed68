import Fluent
import Foundation

/// One friend a challenge was sent to.
final class ChallengeRecipient: Model, @unchecked Sendable {
    static let schema = "challenge_recipients"

    @ID(key: .id) var id: UUID?
    @Parent(key: "challenge_id") var challenge: Challenge
    @Parent(key: "user_id") var user: User
    /// When the sender accepted this person's reply.
    @OptionalField(key: "completed_at") var completedAt: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(challenge: UUID, user: UUID) {
        self.$challenge.id = challenge
        self.$user.id = user
    }
}
