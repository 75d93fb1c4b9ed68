import Fluent
import Foundation

/// One person following another. Following a public profile is accepted at once; following a
/// followers-only or private profile is a request the other person approves.
final class Follow: Model, @unchecked Sendable {
    static let schema = "follows"

    @ID(key: .id) var id: UUID?
    @Parent(key: "follower_id") var follower: User
    @Parent(key: "followee_id") var followee: User
    @Enum(key: "status") var status: Status
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    enum Status: String, Codable, Sendable {
        case pending, accepted
    }

    init() {}

    init(follower: UUID, followee: UUID, status: Status) {
        self.$follower.id = follower
        self.$followee.id = followee
        self.status = status
    }
}
