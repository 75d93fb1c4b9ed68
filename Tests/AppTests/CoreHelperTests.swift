@testable import App
import Foundation
import Testing
import Vapor

@Suite("SVG numbers")
struct TenthsTests {
    @Test func oneDecimalRoundedLikePrintf() {
        #expect(12.34.tenths == "12.3")
        #expect(12.35.tenths == "12.4")
        #expect(0.0.tenths == "0.0")
        #expect((-0.46).tenths == "-0.5")
        #expect((-0.04).tenths == "0.0")
        #expect(599.96.tenths == "600.0")
        #expect(Double.nan.tenths == "0.0")
    }
}

@Suite("Memory cache")
struct MemoryCacheTests {
    @Test func keepsTheRecentlyUsedHalfWhenFull() {
        let cache = MemoryCache<Int>(capacity: 4)
        for index in 0..<4 { cache.set("k\(index)", index) }
        // k0 is read, so it counts as recent; adding a fifth drops the least recently used half.
        #expect(cache.get("k0") == 0)
        cache.set("k4", 4)
        #expect(cache.get("k0") == 0 && cache.get("k4") == 4)
        #expect(cache.get("k1") == nil && cache.get("k2") == nil)
        #expect(cache.get("missing") == nil)
    }
}

@Suite("Request log")
struct RequestLogTests {
    @Test func pathsAreLoggedOnOneLine() {
        #expect(RequestLogMiddleware.masked("/teams/river%20side") == "/teams/river side")
        #expect(RequestLogMiddleware.masked("/x%0Aforged line") == "/x forged line")
    }

    /// Issue 41, scenario 8: a route declares the secret in its path; nothing in Core lists them.
    @Test func routesThatHoldASecretAreLoggedAsTheirPattern() async throws {
        try await withApp { app in
            let route = app.app.get("test-secret", ":token") { _ in "ok" }.holdsSecret()
            let request = Request(application: app.app, method: .GET, url: URI(path: "/test-secret/Xk3_abcdef"), on: app.app.eventLoopGroup.next())
            request.route = route
            #expect(RequestLogMiddleware.masked(request) == "/test-secret/…")
            // Every route with a token, key or feed file in its path says so: the held photo's key too.
            let secretNames: Set<String> = ["token", "key", "file"]
            // A map tile's signature is in its query, which is never logged.
            let carrying = app.app.routes.all.filter { route in
                route.path.first?.description != "tiles"
                    && route.path.contains { if case .parameter(let name) = $0 { return secretNames.contains(name) } else { return false } }
            }
            let described = carrying.map { "\($0.method) /" + $0.path.map(\.description).joined(separator: "/") }
            #expect(described.contains("GET /photos/held/:key") && described.contains("GET /calendar/:file") && described.count >= 10, "\(described)")
            for route in carrying {
                #expect(route.userInfo[RequestLogMiddleware.secretPath] != nil, "\(route.method) \(route.path.map(\.description).joined(separator: "/"))")
            }
        }
    }

    /// SQLKit adds the values of a statement to its log line; they never reach the log.
    @Test func sqlValuesAreNeverLogged() {
        final class Lines: @unchecked Sendable { var metadata: [Logger.Metadata] = [] }
        struct Capture: LogHandler {
            let lines: Lines
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(
                level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt
            ) { lines.metadata.append(metadata ?? [:]) }
        }
        let lines = Lines()
        let logger = Logger(label: "sql") { _ in SQLValuesHiddenLogHandler(Capture(lines: lines)) }
        logger.trace("Executing query", metadata: ["sql": "SELECT * FROM password_resets WHERE token_hash = $1", "binds": ["Xk3_reset_token"]])
        #expect(lines.metadata.count == 1 && lines.metadata[0]["binds"] == nil && lines.metadata[0]["sql"] != nil)
        // Fluent's own query log at debug: what is written and what is looked for.
        logger.debug("Running query", metadata: ["action": "create", "schema": "password_resets", "input": ["Xk3_reset_token"], "filters": ["a@b.c"]])
        #expect(lines.metadata.count == 2 && lines.metadata[1]["input"] == nil && lines.metadata[1]["filters"] == nil)
        #expect(lines.metadata[1]["schema"] != nil)
    }
}

@Suite("Formatting and URLs")
struct FormatTests {
    @Test func distancesDurationsAndTimesReadTheSameEverywhere() throws {
        let oslo = Format(imperial: false, zone: TimeZone.named("Europe/Oslo"))
        let miles = Format(imperial: true, zone: TimeZone.named("America/New_York"))
        #expect(oslo.distance(12_345) == "12.35 km" && miles.distance(12_345) == "7.67 mi")
        #expect(Format.proximity(847, imperial: false) == "850 m")
        #expect(Format.proximity(3_240, imperial: false) == "3.2 km" && Format.proximity(12_600, imperial: false) == "13 km")
        #expect(Format.proximity(3_240, imperial: true) == "2.0 mi")
        #expect(Format.duration(3_723) == "1:02:03" && Format.duration(.infinity) == "–")
        #expect(oslo.pace(1000.0 / 312) == "5:12 /km")
        // 2025-11-21 17:00 UTC is 18:00 in Oslo and 12:00 in New York.
        let instant = Date(timeIntervalSince1970: 1_763_744_400)
        #expect(oslo.when(instant) == "Fri 21 Nov 2025, 18:00")
        #expect(oslo.shortWhen(instant) == "Fri 21 Nov, 18:00" && miles.shortWhen(instant) == "Fri 21 Nov, 12:00")
        #expect(TimeZone.named("Not/AZone").secondsFromGMT(for: instant) == 0)
    }

    @Test func pathsAreBuiltOnceWithLowerCaseIds() throws {
        let id = try #require(UUID(uuidString: "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"))
        #expect(SiteURL.game(id).path == "/games/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        #expect(SiteURL.editGame(id).path == "/games/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/edit")
        #expect(SiteURL.newTeamGame(slug: "river-fc").path == "/teams/river-fc/games/new")
    }

    @Test func aValueCanNeverAddASegmentOrAQueryOfItsOwn() {
        #expect(SiteURL.person(username: "../admin?x=1").path == "/u/..%2Fadmin%3Fx%3D1")
        // Every byte of a letter outside ASCII is escaped, upper-case hex, as RFC 3986 asks.
        #expect(SiteURL.find.with([("q", "café Zürich~_.-")]) == "/find?q=caf%C3%A9%20Z%C3%BCrich~_.-")
        #expect(SiteURL.home.path == "/" && SiteURL.settings.path == "/settings")
        #expect(
            SiteURL.find.with([("what", "teams"), ("near", nil), ("q", ""), ("sport", "five-a-side & more")])
                == "/find?what=teams&sport=five-a-side%20%26%20more")
        #expect(
            SiteURL.login(next: .game(UUID(uuidString: "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D")!))
                == "/login?next=%2Fgames%2F0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
    }
}
