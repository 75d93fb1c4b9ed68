import FieldhouseKit
import Fluent
import Foundation

/// A badge a person earned (`BadgeKind` says what for): once each, a unique pair.
final class Badge: Model, @unchecked Sendable {
    static let schema = "badges"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var owner: User
    @Field(key: "kind") var kind: String
    @Field(key: "earned_at") var earnedAt: Date

    init() {}

    init(owner: UUID, kind: BadgeKind, at: Date) {
        self.$owner.id = owner
        self.kind = kind.rawValue
        self.earnedAt = at
    }
}
