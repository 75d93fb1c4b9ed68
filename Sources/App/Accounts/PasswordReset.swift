import Fluent
import Foundation

/// A "forgot password" link: only the SHA-256 of its token is kept, so the table alone opens no
/// account. It works once, for an hour.
final class PasswordReset: Model, @unchecked Sendable {
    static let schema = "password_resets"
    static let lifetime: TimeInterval = 3600

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "used_at") var usedAt: Date?

    init() {}

    init(user: UUID, tokenHash: String, expiresAt: Date) {
        self.$user.id = user
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}
