import Fluent
import Vapor

/// `/feed`: what the person, the people they follow and their teams did, newest first, a page at a
/// time (`?before=` the last entry seen).
struct FeedController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CommunityPath.newsFeed, use: page)
    }

    struct Page: Encodable {
        let layout: Layout
        let feed: [FeedItem]
        let older: String?
        /// True on a later page, for a link back to the newest.
        let isLater: Bool
        /// This page, for the kudos buttons to come back to.
        let here: String
        let newest: String
        let findPeople: String
        let findTeams: String
        let newPlan: String
        let leaderboard: String
    }

    func page(req: Request) async throws -> View {
        let user = try req.requireUser()
        let raw = req.query[String.self, at: "before"]
        let before = FeedCursor(text: raw)
        guard raw == nil || before != nil else { throw Abort(.badRequest, reason: t("That page of the feed does not exist. Start again from the newest.")) }
        let (loaded, next) = try await Feed.load(
            for: FeedViewer(id: user.requireID(), format: Format(user), today: req.clock.today, now: req.now), before: before,
            from: req.application.features, on: req.db)
        let items = try await FeedResponses.annotate(loaded, viewer: user.requireID(), on: req.db)
        return try await req.view.render(
            "community/feed",
            Page(
                layout: req.layout(title: t("Feed"), section: .home, hasForms: true), feed: items, older: next.map(SiteURL.newsFeed(before:)),
                isLater: before != nil,
                here: before.map(SiteURL.newsFeed(before:)) ?? SiteURL.newsFeed.path,
                newest: SiteURL.newsFeed.path, findPeople: SiteURL.people.path, findTeams: SiteURL.find.path, newPlan: SiteURL.newPlan.path,
                leaderboard: SiteURL.leaderboard.path))
    }
}
