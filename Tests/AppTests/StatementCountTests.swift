@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// Each main page runs a fixed number of SQL statements: the same for a person with one friend,
/// team, game and workout as for one with many. A page that reads per friend or per team (N+1)
/// grows with the person and fails here; the budgets keep the counts from creeping up unseen.
@Suite struct StatementCountTests {
    /// The pages a signed-in person uses most, who reads each, and the most statements each may run
    /// (the session is kept after its first read: `SessionCacheTests`).
    struct Page {
        let name: String
        let path: String
        let reader: Browser
        let budget: Int
    }

    static func pages(_ world: World) -> [Page] {
        [
            // 23 when the home page's feed shows an entry (its kudos and comment counts, one read
            // each), which for this world depends on the hour the suite runs: 21 before midnight
            // UTC, 23 after. Both are fixed; only the budget must hold the larger.
            Page(name: "home", path: "/", reader: world.pia, budget: 23),
            Page(name: "feed", path: "/feed", reader: world.pia, budget: 12),
            Page(name: "workout list", path: "/workouts", reader: world.pia, budget: 3),
            Page(name: "workout", path: world.workout, reader: world.pia, budget: 8),
            Page(name: "team", path: "/teams/\(world.team)", reader: world.pia, budget: 7),
            Page(name: "game", path: world.game, reader: world.pia, budget: 7),
            Page(name: "coach dashboard", path: "/coach", reader: world.kai, budget: 8),
            Page(name: "profile", path: "/u/player_p", reader: world.ben, budget: 6),
            Page(name: "profile, signed out", path: "/u/player_p", reader: world.anonymous, budget: 5),
        ]
    }

    struct World {
        let pia, kai, ben, anonymous: Browser
        let team, game, workout: String
    }

    /// Pia plays in a team with one game, has one friend (Ben), one coach (Kai, with one athlete:
    /// her) and one workout.
    static func makeWorld(_ app: TestApp) async throws -> World {
        let cast = try await TeamCast.make(app, privacy: "protected")
        let game = try await cast.manager.createTeamGame(team: cast.slug)
        #expect(try await cast.player.post("\(game)/rsvp", [("status", "going")], csrfFrom: game).status == .seeOther)
        let ben = app.browser(); try await ben.signUp("ben_b", name: "Ben Friend")
        try await cast.player.befriend(ben, "ben_b", me: "player_p")
        let kai = app.browser(); try await kai.signUp("kai_k", name: "Kai Coach")
        try await cast.player.getsCoached(by: kai)
        try await record(cast.player, id: "w0", hoursAgo: 2)
        let workout = try #require(try await Workout.query(on: app.db).first()?.requireID().uuidString.lowercased())
        return World(pia: cast.player, kai: kai, ben: ben, anonymous: app.browser(), team: cast.slug, game: game, workout: "/workouts/\(workout)")
    }

    /// More of everything a page could read per item: friends and followers, teams, games, workouts,
    /// team mates and athletes.
    static func grow(_ app: TestApp, _ world: World) async throws {
        for index in 1...3 {
            let friend = app.browser(); try await friend.signUp("friend_\(index)", name: "Friend \(index)")
            try await world.pia.befriend(friend, "friend_\(index)", me: "player_p")
            try await record(friend, id: "f\(index)", hoursAgo: Double(index))
            let team = try await friend.createTeam("Friends \(index)", privacy: "public")
            #expect(try await world.pia.post("/teams/\(team)/join", [("message", "")], csrfFrom: "/teams/\(team)").status == .seeOther)
            let game = try await friend.createTeamGame(team: team, days: Double(index))
            #expect(try await world.pia.post("\(game)/rsvp", [("status", "going")], csrfFrom: game).status == .seeOther)
            let athlete = app.browser(); try await athlete.signUp("athlete_\(index)", name: "Athlete \(index)")
            try await athlete.getsCoached(by: world.kai)
            try await record(athlete, id: "a\(index)", hoursAgo: Double(index))
            try await record(world.pia, id: "w\(index)", hoursAgo: 2 + 24 * Double(index))
            let fan = app.browser(); try await fan.signUp("fan_\(index)", name: "Fan \(index)")
            try await fan.post("/u/player_p/follow", [], csrfFrom: "/u/player_p")
        }
        try await app.app.jobs.runDue(app.app)
    }

    /// A finished run with heart rate and a route, sent the way a phone sends one.
    static func record(_ browser: Browser, id: String, hoursAgo: Double) async throws {
        let token = try await browser.deviceToken(named: "Phone \(id)")
        let start = browser.app.clock.milliseconds - Int64(hoursAgo * 3_600_000)
        let points = (0..<30).map { #"{"t": \#(start + Int64($0) * 1000), "lat": \#(55.68 + Double($0) * 0.0001), "lon": 12.57}"# }
        let beats = (0..<30).map { #"{"t": \#(start + Int64($0) * 1000), "bpm": \#(120 + $0)}"# }
        let samples = #"{"locations": [\#(points.joined(separator: ","))], "heart_rate": [\#(beats.joined(separator: ","))]}"#
        #expect(try await browser.api(.POST, "/api/v1/samples", token: token, json: samples).status == .created)
        let made = try await browser.api(
            .POST, "/api/v1/workouts", token: token,
            json: #"{"external_id": "\#(id)", "sport": "running", "start": \#(start), "end": \#(start + 29_000), "visibility": "followers"}"#)
        #expect(made.status == .created)
    }

    /// The statements each page runs, by page name: at its second view, as most views are (the
    /// first view of a workout stores its series, which later views read).
    static func count(_ pages: [Page], _ log: StatementLog) async throws -> [String: [String]] {
        var counts: [String: [String]] = [:]
        for page in pages {
            _ = try await page.reader.get(page.path)
            let (response, statements) = try await log.record { try await page.reader.get(page.path) }
            #expect(response.status == .ok, "\(page.name): \(page.path) answered \(response.status)")
            counts[page.name] = statements
        }
        return counts
    }

    @Test func mainPagesRunAFixedNumberOfStatements() async throws {
        try await withApp { app in
            let world = try await Self.makeWorld(app)
            try await app.app.jobs.runDue(app.app)
            let log = StatementLog()
            log.install(on: app.app)
            let pages = Self.pages(world)
            let small = try await Self.count(pages, log)
            try await Self.grow(app, world)
            let large = try await Self.count(pages, log)
            #expect(pages.count >= 8, "only \(pages.count) pages are counted")
            for page in pages {
                let before = small[page.name] ?? [], after = large[page.name] ?? []
                #expect(!before.isEmpty, "\(page.name): no statement counted; is the query log still at trace?")
                // The feed widens its window back in time until it fills a page: fewer reads when
                // there is more to show, never more.
                #expect(
                    after.count <= before.count,
                    "\(page.name) ran \(before.count) statements for one of each and \(after.count) for more: \(before.map { $0.prefix(60) }) then \(after.map { $0.prefix(60) })"
                )
                // On PostgreSQL processes keep no sessions yet (`PersonCache`): one more statement.
                let budget = page.budget + (app.store.schema == nil || page.reader === world.anonymous ? 0 : 1)
                #expect(
                    after.count <= budget, "\(page.name) ran \(after.count) statements, over its \(budget): \(after.map { $0.prefix(80) })")
            }
        }
    }
}
