import FieldhouseKit
import Fluent
import Vapor

/// Where people meet: the feed of what friends, the people one follows and one's teams did, plans
/// to do something together, and kudos.
enum Community: Feature {
    static func boot(_ app: Application) throws {
        try app.register(collection: FeedController())
        try app.register(collection: KudosController())
        try app.register(collection: PlanController())
        try app.register(collection: LeaderboardController())
        try app.register(collection: BadgeController())
        try app.register(collection: GiftController())
        try app.register(collection: FeedCommentController())
        try app.register(collection: NearbyController())
    }

    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        try await planFeedItems(for: viewer, before: before, limit: limit, on: db)
            + badgeFeedItems(for: viewer, before: before, limit: limit, on: db)
    }

    static var jobKinds: [JobKind] { [BadgeAwards.kind, BadgeAwards.personKind, WeeklyNudge.kind] }

    static func workoutRecorded(by userID: UUID, now: Date, on db: any Database) async throws {
        try await Job.enqueue(BadgeAwards.personKind.name, payload: BadgeAwards.Person(user: userID), at: now, key: nil, on: db)
    }

    /// Badges, for those who may see the whole profile (followers, as in the feed).
    static func profileParts(of userID: UUID, on db: any Database) async throws -> ProfileParts {
        let badges = try await Badge.query(on: db).filter(\.$owner.$id == userID).sort(\.$earnedAt, .descending).all()
            .compactMap { BadgeKind(rawValue: $0.kind) }
        guard !badges.isEmpty else { return ProfileParts() }
        return ProfileParts(
            counts: [ProfileParts.Count(number: String(badges.count), label: badges.count == 1 ? "badge" : "badges", url: SiteURL.badges.path)],
            lists: [
                ProfileParts.List(
                    heading: "Badges", items: badges.map { ProfileParts.List.Item(text: "\($0.symbol) \($0.title)", url: SiteURL.badges.path, badge: "") })
            ])
    }
}
