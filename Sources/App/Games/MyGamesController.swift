import FieldhouseKit
import Fluent
import Vapor

/// `/games`: every game that concerns me, across my teams and pick-up games.
struct MyGamesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("games", use: index)
    }

    struct Card: Encodable {
        let url: String
        let title: String
        let sport: String
        let team: String?
        let when: String
        let place: String?
        let status: String
        let statusValue: String
        let cancelled: Bool
    }

    struct IndexPage: Encodable {
        let layout: Layout
        let pending: [Card]
        let upcoming: [Card]
        let past: [Card]
        let pager: Pager
        let feedURL: String
    }

    /// One game as a card for `viewer`, showing its exact place only as its page would.
    static func card(_ row: MyGames.Row, viewer: UUID) -> Card {
        let status: String
        if row.isCancelled { status = "Cancelled" }
        else if let mine = row.myStatus { status = row.is_sub == true ? "Substitute" : mine.label }
        else { status = row.game == .team ? "No answer yet" : "" }
        return Card(
            url: SiteURL.game(row.id).path, title: row.title, sport: Sport(rawValue: row.sport)?.label ?? row.sport,
            team: row.team_name, when: "\(GameTime.shortDay(row.starts_at, zone: row.time_zone)) · \(GameTime.range(row.starts_at, row.endsAt, zone: row.time_zone))",
            place: PlaceView(name: row.place_name, coordinate: row.coordinate, exact: row.canSeeExactPlace(viewer: viewer),
                             hiddenNote: "the exact place is shown once you're in").text,
            status: status,
            statusValue: row.isCancelled ? "cancelled" : row.myStatus?.rawValue ?? "none", cancelled: row.isCancelled
        )
    }

    func index(req: Request) async throws -> View {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let upcoming = try await MyGames.load(for: userID, range: .upcoming(limit: 200), on: req.db)
        var pager = Pager(req: req)
        let past = pager.finish(try await MyGames.load(for: userID, range: .past(limit: pager.fetchLimit, offset: pager.offset), on: req.db),
                                path: SiteURL.games.path, query: [])
        return try await req.view.render("games/index", IndexPage(
            layout: req.layout(title: "My games", section: "games"),
            pending: pager.page == 1 ? upcoming.filter(\.isPending).map { Self.card($0, viewer: userID) } : [],
            upcoming: pager.page == 1 ? upcoming.filter { !$0.isPending }.map { Self.card($0, viewer: userID) } : [],
            past: past.map { Self.card($0, viewer: userID) }, pager: pager,
            feedURL: try await CalendarController.feedURL(for: user, req: req)
        ))
    }
}
