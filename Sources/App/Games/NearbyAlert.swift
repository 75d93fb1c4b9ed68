import Fluent
import Foundation

/// When a person was last told of a new game near them: at most one such message a day.
final class NearbyAlert: Model, @unchecked Sendable {
    static let schema = "nearby_alerts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "last_sent_at") var lastSentAt: Date

    init() {}
}
