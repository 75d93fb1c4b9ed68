@testable import App
import Foundation
import Testing

/// A path is spelled once: a feature registers its routes with the cases of its `RoutePattern` enum
/// and makes its links (`SiteURL`) from the same cases, so the two cannot drift apart.
@Suite struct RoutePathTests {
    /// Features whose routes are still registered with spelled-out segments. A feature leaves this
    /// list when all its routes are typed; the list only shrinks.
    static let untyped: Set<String> = []

    @Test func everyTypedPathIsARegisteredRouteAndEveryTypedFeatureRegistersOnlyTypedPaths() async throws {
        try await withApp { app in
            let registered = Set(app.app.routes.all.map { URLTag.pattern(of: $0) })
            let declared = app.app.features.flatMap { $0.routePatterns } + SitePath.patterns
            #expect(declared.count >= 20, "the typed paths were not found")
            #expect(Set(declared).count == declared.count, "a path is declared twice: \(declared.sorted())")
            for pattern in declared {
                #expect(registered.contains(pattern), "\(pattern) is declared but no route has it")
            }
            let byFeature = try await RouteInventoryTests.routesByFeature(config: app.store.config)
            let typed = byFeature.filter { !Self.untyped.contains($0.feature) }
            #expect(!typed.isEmpty, "no feature is typed")
            for (route, feature) in typed {
                let pattern = String(route.split(separator: " ", maxSplits: 1)[1])
                #expect(declared.contains(pattern), "\(feature) registers \(route) with segments spelled out, not a RoutePattern case")
            }
            // Every feature in the list is still a feature: a renamed one cannot hide here.
            let names = Set(app.app.features.map { "\($0)" })
            #expect(Self.untyped.isSubset(of: names))
        }
    }

    @Test func aLinkFillsThePatternsParametersInOrderEscapingEach() {
        #expect(SiteURL(GamePath.approvePlayer, "4f1c", "ana maria").path == "/games/4f1c/players/ana%20maria/approve")
        #expect(SiteURL(TeamPath.newTeamGame, "a/b").path == "/teams/a%2Fb/games/new")
        #expect(SiteURL(GamePath.games).path == "/games")
        #expect(SiteURL.calendarFeed(token: "abc").path == "/calendar/abc.ics")
    }
}
