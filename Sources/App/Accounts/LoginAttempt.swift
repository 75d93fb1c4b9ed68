import Fluent
import Foundation

/// A failed sign-in, kept for 15 minutes to slow down password guessing. Stored in the database,
/// not in memory, so the limit holds across server processes and restarts.
final class LoginAttempt: Model, @unchecked Sendable {
    static let schema = "login_attempts"

    @ID(key: .id) var id: UUID?
    /// "account:<name>" or "address:<ip>".
    @Field(key: "key") var key: String
    @Field(key: "attempted_at") var attemptedAt: Date

    init() {}

    init(key: String, at date: Date) {
        self.key = key
        self.attemptedAt = date
    }
}
