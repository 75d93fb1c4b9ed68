import Fluent
import Foundation

/// A device's key to the API. Only the token's hash is stored; the token is shown once.
final class DeviceToken: Model, @unchecked Sendable {
    static let schema = "device_tokens"
    /// Devices a person may hold at once: enough for every watch, strap and browser they use.
    static let maxActive = 20

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "name") var name: String
    @Field(key: "token_hash") var tokenHash: String
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?
    @OptionalField(key: "revoked_at") var revokedAt: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(user: UUID, name: String, tokenHash: String) {
        self.$user.id = user
        self.name = name
        self.tokenHash = tokenHash
    }
}
