import FieldhouseKit
import Fluent
import Vapor

/// Where people meet: the feed of what friends, the people one follows and one's teams did, plans
/// to do something together, and kudos.
enum Community: Feature, WorkoutListener {
    static var routePatterns: [String] { CommunityPath.patterns }

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

    static func seedDemo(_ app: Application) async throws -> [String] {
        try await DemoCommunity.seed(app: app)
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.community, try await BenchCommunity.seed(app: app) else { return [] }
        return ["Added bench_social with \(BenchCommunity.friends) friends and \(BenchCommunity.workouts) workouts of theirs."]
    }

    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        try await planFeedItems(for: viewer, before: before, limit: limit, on: db)
            + badgeFeedItems(for: viewer, before: before, limit: limit, on: db)
    }

    static var jobKinds: [JobKind] { [BadgeAwards.kind, BadgeAwards.personKind, WeeklyNudge.kind] }

    static func workoutRecorded(by userID: UUID, now: Date, on db: any Database) async throws {
        // One check per person at the end of the minute, however many workouts arrive in it (a
        // device uploading a backlog): the key makes enqueueing again a no-op.
        let slot = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60
        try await Job.enqueue(
            BadgeAwards.personKind.name, payload: BadgeAwards.Person(user: userID), at: Date(timeIntervalSince1970: slot),
            key: "\(BadgeAwards.personKind.name):\(SiteURL.id(userID))@\(Int(slot))", on: db)
    }

    /// Public badges (see `BadgeAwards`): a profile may be open to anyone, and these alone tell
    /// nothing kept for followers.
    static func profileParts(of userID: UUID, on db: any Database) async throws -> ProfileParts {
        let badges = try await Badge.query(on: db).filter(\.$owner.$id == userID).filter(\.$isPublic == true).sort(\.$earnedAt, .descending).all()
            .compactMap { BadgeKind(rawValue: $0.kind) }
        guard !badges.isEmpty else { return ProfileParts() }
        return ProfileParts(
            counts: [ProfileParts.Count(number: String(badges.count), label: tn("badge", "badges", badges.count), url: SiteURL.badges.path)],
            lists: [
                ProfileParts.List(
                    heading: t("Badges"),
                    items: badges.map { ProfileParts.List.Item(text: "\($0.symbol) \($0.title)", url: SiteURL.badges.path, badge: "") })
            ])
    }
}
