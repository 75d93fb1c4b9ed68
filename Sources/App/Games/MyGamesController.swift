import FieldhouseKit
import Fluent
import Vapor

/// `/games`: every game that concerns me, across my teams and pick-up games.
struct MyGamesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(GamePath.games, use: index)
    }

    struct IndexPage: Encodable {
        let layout: Layout
        let pending: [GameCard]
        let upcoming: [GameCard]
        let past: [GameCard]
        let pager: Pager
        let feedURL: String
    }

    func index(req: Request) async throws -> Response {
        // A visitor has no games of their own: the menu's Games shows them the public ones.
        guard let user = req.currentUser else { return req.redirect(to: SiteURL.find.path) }
        let userID = try user.requireID()
        let upcoming = try await MyGames.load(for: userID, range: .upcoming(limit: 200), now: req.now, on: req.db)
        var pager = Pager(req: req)
        let past = pager.finish(
            try await MyGames.load(for: userID, range: .past(limit: pager.fetchLimit, offset: pager.offset), now: req.now, on: req.db),
            at: .games, query: [])
        return try await req.view.render(
            "games/index",
            IndexPage(
                layout: req.layout(title: t("My games"), section: .games),
                pending: pager.page == 1 ? upcoming.filter(\.isPending).map { GameCard($0, viewer: userID) } : [],
                upcoming: pager.page == 1 ? upcoming.filter { !$0.isPending }.map { GameCard($0, viewer: userID) } : [],
                past: past.map { GameCard($0, viewer: userID) }, pager: pager,
                feedURL: try await CalendarFeed.url(for: user, req: req)
            )
        ).encodeResponse(for: req)
    }
}
