import Fluent
import Vapor

/// A signed-in browser. The cookie carries a random token; only its SHA-256 is stored, so a copy of
/// the database cannot be used to sign in. Living in the database, sessions survive restarts and are
/// shared by every server process.
final class UserSession: Model, @unchecked Sendable {
    static let schema = "sessions"

    @ID(key: .id) var id: UUID?
    @Field(key: "token_hash") var tokenHash: String
    @Parent(key: "user_id") var user: User
    @Field(key: "csrf_token") var csrfToken: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "last_seen_at") var lastSeenAt: Date
    @Field(key: "expires_at") var expiresAt: Date

    init() {}

    init(tokenHash: String, userID: UUID, csrfToken: String, now: Date) {
        self.tokenHash = tokenHash
        self.$user.id = userID
        self.csrfToken = csrfToken
        self.createdAt = now
        self.lastSeenAt = now
        self.expiresAt = now.addingTimeInterval(Self.lifetime)
    }

    /// Sessions last 30 days from the last visit.
    static let lifetime: TimeInterval = 30 * 24 * 3600
    /// Extending the expiry costs a write, so it happens at most this often rather than per request.
    static let refreshInterval: TimeInterval = 3600
}
