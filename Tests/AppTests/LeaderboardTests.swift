@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// The rating among friends and teams: ranks from the workouts the viewer may open, ties sharing a
/// rank, one's own row always there, and nobody listed whose workouts are kept from the viewer.
@Suite("Leaderboard")
struct LeaderboardTests {
    func log(_ browser: Browser, minutes: Int, km: String, visibility: String, at time: String = "07:00", _ app: TestApp) async throws {
        // 07:00 today is before the test clock's noon, and inside this week and this month.
        let made = try await browser.post(
            "/workouts/new",
            [
                ("sport", "running"), ("day", app.clock.today.description), ("time", time), ("minutes", String(minutes)),
                ("distance", km), ("visibility", visibility),
            ], csrfFrom: "/workouts/new")
        #expect(made.status == .seeOther, "\(made.firstMatch(#"class="error"[^>]*>([^<]+)"#) ?? "")")
    }

    /// The names in the order the leaderboard lists them, each with its rank.
    func ranks(_ page: Browser.Page) -> [String] {
        page.body.components(separatedBy: "<span class=\"rank\">").dropFirst().map { part in
            let rank = part.prefix { $0 != "<" }
            let name = part.components(separatedBy: "\">").dropFirst(2).first?.prefix { $0 != "<" } ?? ""
            return "\(rank) \(name)"
        }
    }

    @Test func friendsAreRankedByWhatTheViewerMaySee() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), cai = app.browser(), dan = app.browser(), eve = app.browser()
            for (name, browser) in [("ana", ana), ("ben", ben), ("cai", cai), ("dan", dan), ("eve", eve)] { try await browser.signUp(name) }
            for (browser, name) in [(ben, "ben"), (cai, "cai"), (dan, "dan")] { try await ana.befriend(browser, name, me: "ana") }
            try await log(ana, minutes: 30, km: "5", visibility: "private", app)
            try await log(ben, minutes: 60, km: "10", visibility: "followers", app)
            try await log(dan, minutes: 45, km: "12", visibility: "public", app)
            try await log(dan, minutes: 15, km: "3", visibility: "public", at: "09:00", app)
            try await log(cai, minutes: 300, km: "50", visibility: "private", at: "06:00", app)
            try await log(eve, minutes: 250, km: "40", visibility: "public", at: "06:00", app)

            let minutes = try await ana.get("/leaderboard")
            #expect(minutes.status == .ok)
            #expect(ranks(minutes) == ["1 Ben", "1 Dan", "3 Ana"], "\(ranks(minutes))")
            #expect(!minutes.contains("Cai"), "Cai keeps her workouts to herself")
            #expect(!minutes.contains("Eve"), "Eve is not a friend")
            #expect(minutes.contains("60 min"))
            let distance = try await ana.get("/leaderboard?scope=friends&period=month&by=distance")
            #expect(ranks(distance) == ["1 Dan", "2 Ben", "3 Ana"])
            #expect(distance.contains("15.00 km"))
            let workouts = try await ana.get("/leaderboard?scope=friends&period=week&by=workouts")
            #expect(ranks(workouts) == ["1 Dan", "2 Ana", "2 Ben"], "ties in name order")
            let points = try await ana.get("/leaderboard?by=points")
            #expect(ranks(points) == ["1 Dan", "2 Ben", "3 Ana"], "60 + 20 beats 60 + 10")

            // Eve has no friends here: her own row still shows, with her rank.
            let eves = try await eve.get("/leaderboard")
            #expect(ranks(eves) == ["1 Eve"])
            #expect(eves.contains("Nobody else here"))

            #expect(try await ana.get("/leaderboard?period=year").status == .badRequest)
            #expect(try await ana.get("/leaderboard?by=%27%3B%20DROP").status == .badRequest)
            #expect(try await ana.get("/leaderboard?scope=team:nope").status == .notFound)
        }
    }

    @Test func aTeamBoardListsMembersWhoseWorkoutsTheViewerMayOpen() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), kid = app.browser(), out = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            try await out.signUp("out")
            try await kid.signUp("kid", birthDate: app.clock.today.adding(days: -13 * 366).description)
            let slug = try await ana.createTeam("Lake Runners", privacy: "private")
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            for name in ["ben", "kid"] {
                let id = try #require(try await User.query(on: app.db).filter(\.$username == name).first()?.id)
                try await Membership(teamID: team.requireID(), userID: id, role: .player).create(on: app.db)
            }
            try await log(ben, minutes: 40, km: "8", visibility: "public", app)
            try await log(kid, minutes: 90, km: "15", visibility: "followers", app)
            try await log(out, minutes: 99, km: "20", visibility: "public", app)
            let board = try await ana.get("/leaderboard?scope=team:\(slug)&period=week&by=minutes")
            #expect(board.status == .ok)
            #expect(ranks(board) == ["1 Ben", "2 Ana"], "\(ranks(board))")
            #expect(!board.contains("Kid"), "a child's followers-only workouts stay with their followers")
            #expect(!board.contains("Out"))
            #expect(try await out.get("/leaderboard?scope=team:\(slug)").status == .notFound, "not a member: no such board")
        }
    }
}
