import Vapor

/// `GET /places/search?q=`: places whose name starts with what was typed, as JSON, for the
/// suggestions under a place field (app.js). Forms without script send the typed name, which the
/// server resolves the same way (`PlaceFinder.resolve`).
struct PlaceFinderController: RouteCollection {
    struct Answer: Content {
        let results: [PlaceMatch]
    }

    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePath.searchPlaces, use: search)
    }

    func search(req: Request) async throws -> Response {
        let query = req.query[String.self, at: "q"] ?? ""
        let results = try await PlaceFinder.search(query, home: req.currentUser?.homePlace, from: req.application.features, on: req.db)
        let response = try await Answer(results: results).encodeResponse(for: req)
        // The viewer's home area may be among them: kept out of shared caches.
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=300")
        return response
    }
}
