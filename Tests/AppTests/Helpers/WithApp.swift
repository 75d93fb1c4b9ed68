@testable import App
import FieldhouseKit
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

/// Where one test's data lives: a fresh SQLite file, or (when `DATABASE_URL` is set, as in
/// `make test-postgres`) a fresh schema on that PostgreSQL server. Tests run in parallel, so each
/// gets its own.
struct TestStore {
    var config: AppConfig
    let schema: String?

    static func make() -> TestStore {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("fieldhouse-test-" + UUID().uuidString.lowercased()).path
        var database = AppConfig.Database.sqlite(path: dir + "/fieldhouse.sqlite")
        var schema: String?
        if let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty {
            let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            database = .postgres(url: url, searchPath: name)
            schema = name
        }
        var config = AppConfig(dataDirectory: dir, database: database, logLevel: .warning)
        config.passwordCost = 4
        return TestStore(config: config, schema: schema)
    }
}

/// Where every test app's clock starts: noon UTC today, ticking on, so a suite that runs across
/// midnight sees no date change in the middle. `FIELDHOUSE_TEST_DATE=2027-01-03` runs the suite
/// on another day (a Sunday, a new year, a leap day) to find rules that only break on some dates.
let testNoon: Date = {
    if let day = ProcessInfo.processInfo.environment["FIELDHOUSE_TEST_DATE"], !day.isEmpty {
        guard let noon = LocalTime.instant(day: day, time: "12:00", zone: "UTC") else { fatalError("FIELDHOUSE_TEST_DATE is not a date: \(day)") }
        return noon
    }
    let midnightUTC = (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
    return Date(timeIntervalSince1970: midnightUTC + 12 * 3600)
}()

/// A running Fieldhouse: the real `configure`, migrated, serving HTTP on a free local port.
final class TestApp: @unchecked Sendable {
    let app: Application
    let port: Int
    let store: TestStore

    static func start(_ store: TestStore) async throws -> TestApp {
        let app = try await Application.make(.testing)
        app.clock.set(testNoon)
        do {
            try await configure(app, config: store.config)
            if let schema = store.schema {
                try await app.db.sql.raw("CREATE SCHEMA IF NOT EXISTS \(unsafeRaw: schema)").run()
            }
            try await app.autoMigrate()
            app.http.server.configuration.hostname = "127.0.0.1"
            app.http.server.configuration.port = 0
            app.http.client.configuration.redirectConfiguration = .disallow
            try await app.asyncBoot()
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            guard let port = app.http.server.shared.localAddress?.port else {
                throw Abort(.internalServerError, reason: "test server has no port")
            }
            return TestApp(app: app, port: port, store: store)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    private init(app: Application, port: Int, store: TestStore) {
        self.app = app
        self.port = port
        self.store = store
    }

    func stop() async {
        // Open live streams never end by themselves: closed first, so the server need not wait.
        await app.liveRooms.closeAll()
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// A new browser with its own cookies.
    /// The `Accept-Language` every new browser sends, when a test needs people who read another language.
    var browserLanguage: String?

    func browser() -> Browser {
        let browser = Browser(app: self)
        if let browserLanguage { browser.extraHeaders.replaceOrAdd(name: .acceptLanguage, value: browserLanguage) }
        return browser
    }

    var db: any Database { app.db }

    /// After a test wrote people's rows straight to the database: as any writer must, it tells the
    /// app, which forgets the sessions and accounts it keeps (`PersonChanges`).
    func wroteBehindTheAppsBack() {
        app.personChanges.forgetAll()
    }

    /// The app's clock: tests read the time from it, never from `Date()`, and move it to test
    /// what happens later.
    var clock: AppClock { app.clock }
}

/// Runs `test` against a freshly configured and migrated app, then removes every trace of it.
/// How many tests may hold a database at once. Swift Testing starts every test of the run together;
/// on SQLite each has its own file, but PostgreSQL takes one connection per event loop per app and
/// refuses clients beyond `max_connections` (300 in `scripts/with-postgres.sh`), which 300 tests
/// at once exceed. So on PostgreSQL tests wait their turn, leaving a third of the connections spare.
actor TestGate {
    static let shared = TestGate(
        permits: (ProcessInfo.processInfo.environment["DATABASE_URL"] ?? "").isEmpty
            ? Int.max : max(4, 200 / (ProcessInfo.processInfo.activeProcessorCount + 2)))

    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) { available = permits }

    func enter() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
    }

    /// Runs `body` holding one place.
    static func hold<T>(_ body: () async throws -> T) async throws -> T {
        await shared.enter()
        do {
            let result = try await body()
            await shared.leave()
            return result
        } catch {
            await shared.leave()
            throw error
        }
    }
}

func withApp(config adjust: (inout AppConfig) -> Void = { _ in }, _ test: (TestApp) async throws -> Void) async throws {
    try await TestGate.hold { try await runApp(config: adjust, test) }
}

private func runApp(config adjust: (inout AppConfig) -> Void, _ test: (TestApp) async throws -> Void) async throws {
    var store = TestStore.make()
    adjust(&store.config)
    let app = try await TestApp.start(store)
    do {
        try await test(app)
    } catch {
        await cleanUp(app)
        throw error
    }
    await cleanUp(app)
}

/// Like `withApp`, but lets the test stop and start the server on the same data (a restart).
func withStore(_ test: (TestStore) async throws -> Void) async throws {
    try await TestGate.hold { try await runStore(test) }
}

/// Runs `test` with two servers on the same store, as two processes would be.
func withTwoProcesses(_ test: (TestApp, TestApp) async throws -> Void) async throws {
    try await withStore { store in
        let first = try await TestApp.start(store)
        let second: TestApp
        do { second = try await TestApp.start(store) } catch {
            await first.stop()
            throw error
        }
        // One machine, one clock (each test app's clock starts at noon when it starts).
        second.clock.set(first.clock.now)
        do {
            try await test(first, second)
        } catch {
            await second.stop()
            await first.stop()
            throw error
        }
        await second.stop()
        await first.stop()
    }
}

private func runStore(_ test: (TestStore) async throws -> Void) async throws {
    let store = TestStore.make()
    try await test(store)
    if store.schema != nil {
        let app = try await TestApp.start(store)
        await cleanUp(app)
    } else {
        try? FileManager.default.removeItem(atPath: store.config.dataDirectory)
    }
}

private func cleanUp(_ app: TestApp) async {
    if let schema = app.store.schema {
        _ = try? await app.db.sql.raw("DROP SCHEMA IF EXISTS \(unsafeRaw: schema) CASCADE").run()
    }
    await app.stop()
    try? FileManager.default.removeItem(atPath: app.store.config.dataDirectory)
}
