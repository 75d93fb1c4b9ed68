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
    /// Whether others may see it: earned from what the person shares (workouts not private, public
    /// challenges and games), not only from what they keep to themselves. See `BadgeAwards`.
    @Field(key: "shared") var shared: Bool
    /// Whether anyone may see it (on a public profile): earned from what the person shows everyone.
    @Field(key: "public") var isPublic: Bool
    /// When others could first see it: the feed places it there, never at a private moment.
    @OptionalField(key: "shown_at") var shownAt: Date?

    init() {}

    init(owner: UUID, kind: BadgeKind, at: Date, shared: Bool, isPublic: Bool) {
        self.$owner.id = owner
        self.kind = kind.rawValue
        self.earnedAt = at
        self.shared = shared
        self.isPublic = isPublic
        self.shownAt = shared ? at : nil
    }
}
