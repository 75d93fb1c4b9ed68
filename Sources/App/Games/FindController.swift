import FieldhouseKit
import Fluent
import Vapor

/// `/find`: games (pick-up games, and team games asking for substitutes) and teams looking for
/// players near a point; `/api/v1/find` gives apps the same games as JSON.
struct FindController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePath.find, use: find)
        routes.get(GamePath.apiFind, use: api)
    }

    struct FindPage: Encodable {
        let layout: Layout
        let what: String
        let form: [String: String]
        let choices: Choices
        let needsLocation: Bool
        /// "Within 25 km · Futsal": the search in words, on the folded filters' button.
        let searched: String
        /// The filters start unfolded only when there is nothing to show yet or something to fix.
        let filtersOpen: Bool
        let errors: FieldErrors
        let games: [GameSearch.Result]
        let teams: [TeamSearch.Result]
        let pager: Pager
    }

    func find(req: Request) async throws -> Response {
        var query = FindQuery(req)
        try await query.resolvePlace(viewer: req.currentUser, features: req.application.features, on: req.db)
        let what = req.query[String.self, at: "what"] == "teams" ? "teams" : "games"
        var pager = Pager(req: req)
        var games: [GameSearch.Result] = []
        var teams: [TeamSearch.Result] = []
        let imperial = req.currentUser?.units == .imperial
        if query.isValid, let centre = query.centre {
            let linkQuery = [("what", what)] + query.echo
            if what == "teams" {
                let hits = try await TeamSearch.search(query, centre: centre, limit: pager.fetchLimit, offset: pager.offset, on: req.db)
                teams = TeamSearch.results(for: pager.finish(hits, at: .find, query: linkQuery), imperial: imperial)
            } else {
                let hits = try await searchGames(req, query, centre: centre, pager: pager)
                games = try await GameSearch.results(for: pager.finish(hits, at: .find, query: linkQuery), imperial: imperial, on: req.db)
            }
        }
        var form = Dictionary(query.echo, uniquingKeysWith: { first, _ in first })
        if form["radius_km", default: ""].isEmpty { form["radius_km"] = "25" }
        let page = FindPage(
            layout: req.layout(title: what == "teams" ? t("Find a team") : t("Find a game"), section: what == "teams" ? .teams : .games),
            what: what, form: form, choices: Choices(),
            needsLocation: query.centre == nil && query.isValid,
            searched: ([t("Within {radius} km", Format.localised(FormNumber.text(query.radiusKm)))]
                + [query.sport?.label, query.skill?.label, query.ageGroup?.label, query.gender?.label].compactMap { $0 }).joined(separator: " · "),
            filtersOpen: query.centre == nil || !query.isValid,
            errors: query.errors, games: games, teams: teams, pager: pager
        )
        return try await req.view.render("find/index", page).encodeResponse(status: query.isValid ? .ok : .unprocessableEntity, for: req)
    }

    struct APIAnswer: Content {
        let results: [GameSearch.Result]
        let nextPage: Int?
        let radiusKm: Double
        let latitude: Double
        let longitude: Double
    }

    func api(req: Request) async throws -> Response {
        var query = FindQuery(req)
        if query.isValid, query.centre == nil { query.errors["lat"] = t("Give lat and lon (or sign in with a home area)") }
        // The page list guesses page 1 for a bad number; a program is told instead.
        if let page = req.query[String.self, at: "page"], Int(page).map({ (1...10_000).contains($0) }) != true {
            query.errors["page"] = t("page must be a whole number from 1 to 10000.")
        }
        guard query.isValid, let centre = query.centre else {
            throw APIError(
                status: .unprocessableEntity, code: "invalid_query", reason: t("Some search parameters are not valid."), fields: query.errors.messages)
        }
        var pager = Pager(req: req)
        let hits = try await searchGames(req, query, centre: centre, pager: pager)
        let page = pager.finish(hits, at: .apiFind, query: [])
        let results = try await GameSearch.results(for: page, imperial: false, on: req.db)
        return try await APIAnswer(
            results: results, nextPage: pager.hasNext ? pager.page + 1 : nil, radiusKm: query.radiusKm,
            latitude: centre.latitude, longitude: centre.longitude
        ).encodeResponse(for: req)
    }

    /// Substitute requests are for people outside the team, so the viewer's own teams are left out.
    private func searchGames(_ req: Request, _ query: FindQuery, centre: Coordinate, pager: Pager) async throws -> [GameSearch.Hit] {
        var mine = Set<UUID>()
        if let viewerID = req.currentUser?.id {
            mine = Set(try await Membership.query(on: req.db).filter(\.$user.$id == viewerID).all().map { $0.$team.id })
        }
        return try await GameSearch.search(query, centre: centre, excludingTeams: mine, limit: pager.fetchLimit, offset: pager.offset, now: req.now, on: req.db)
    }
}
