@testable import App
import Foundation
import Testing
import Vapor

/// `docs/ROUTES.md` lists every route the app registers, the feature that registers it and who
/// may call it; `openapi.json` documents every `/api/v1/` route. Both are checked against the real
/// route table, so neither can drift: a new route fails here until it is written down.
@Suite struct RouteInventoryTests {
    static let who: [RouteMatrixTests.Access: String] = [
        .anyone: "anyone", .signedIn: "signed in", .device: "device token", .object: "by the object's policy",
        .operations: "this machine, or the metrics token",
    ]

    /// The routes each feature registers, from booting that feature alone on a bare application.
    static func routesByFeature(config: AppConfig) async throws -> [(route: String, feature: String)] {
        var rows: [(String, String)] = []
        for feature in Features.all {
            let app = try await Application.make(.testing)
            app.config = config
            try feature.boot(app)
            rows += app.routes.all.map { (Self.name(of: $0), "\(feature)") }
            try await app.asyncShutdown()
        }
        return rows
    }

    static func name(of route: Vapor.Route) -> String {
        "\(route.method.rawValue) /" + route.path.map { "\($0)" }.joined(separator: "/")
    }

    static var documentPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/ROUTES.md").path
    }

    @Test func theRouteListInTheDocsIsTheAppsRouteTable() async throws {
        try await withApp { app in
            let byFeature = try await Self.routesByFeature(config: app.store.config)
            // Booting the features one by one gives exactly the app's routes: nothing is registered elsewhere.
            #expect(byFeature.map(\.route).sorted() == app.app.routes.all.map(Self.name).sorted())

            var text = """
                # Routes

                Every route Fieldhouse registers, by feature, and who may call it. `RouteInventoryTests` compares this
                file with the running app's route table; `RouteMatrixTests` checks the "who" column request by request.
                "By the object's policy" means the answer depends on the team, game, workout, challenge or person named in
                the path (see `docs/ARCHITECTURE.md`, Authorization).

                | Method | Path | Feature | Who |
                |---|---|---|---|

                """
            for (route, feature) in byFeature.sorted(by: {
                ($0.feature, $0.route.split(separator: " ")[1], $0.route) < ($1.feature, $1.route.split(separator: " ")[1], $1.route)
            }) {
                let parts = route.split(separator: " ", maxSplits: 1)
                text += "| \(parts[0]) | `\(parts[1])` | \(feature) | \(Self.who[RouteMatrixTests.classify(route)]!) |\n"
            }
            let written = (try? String(contentsOfFile: Self.documentPath, encoding: .utf8)) ?? ""
            if written != text {
                let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("ROUTES.md").path
                try text.write(toFile: fresh, atomically: true, encoding: .utf8)
                Issue.record("docs/ROUTES.md is out of date; the current list is in \(fresh): copy it over after checking it")
            }
        }
    }

    @Test func everyDeviceAPIRouteIsInTheOpenAPIDocument() async throws {
        try await withApp { app in
            let spec = try await app.browser().get("/api/v1/openapi.json")
            let paths = try #require(spec.json["paths"] as? [String: [String: Any]])
            let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
            let registered = Set(
                app.app.routes.all.map(Self.name).filter { $0.contains(" /api/v1/") }.map { route in
                    route.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
                })
            #expect(registered.subtracting(documented).sorted() == [], "API routes missing from openapi.json")
            #expect(documented.subtracting(registered).sorted() == [], "openapi.json documents routes that do not exist")
        }
    }
}
