@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// The feed: what the viewer, the people they follow and their teams did, and nothing they could
/// not open.
@Suite("Feed")
struct FeedTests {
    /// Ana follows Ben; Carl follows nobody; Dan asked to follow Eve, who has not answered. Each
    /// sees exactly what they may open: public and followers-only workouts of the people they
    /// follow, never a private one; their teams' new members and results, not another team's.
    @Test func theFeedShowsOnlyWhatTheViewerMayOpen() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), carl = app.browser(), dan = app.browser(), eve = app.browser(), gus = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            try await carl.signUp("carl")
            try await dan.signUp("dan")
            try await gus.signUp("gus")
            try await eve.signUp("eve", birthDate: app.clock.today.adding(days: -14 * 366).description)
            let gusUser = try #require(try await User.query(on: app.db).filter(\.$username == "gus").first())
            gusUser.visibility = .followers
            try await gusUser.save(on: app.db)
            #expect(try await ana.post("/u/ben/follow", [], csrfFrom: "/u/ben").status == .seeOther)
            #expect(try await dan.post("/u/eve/follow", [], csrfFrom: "/people").status == .notFound, "strangers cannot find a child")
            #expect(try await dan.post("/u/gus/follow", [], csrfFrom: "/people").status == .seeOther)
            #expect(try await Follow.query(on: app.db).filter(\.$status == .pending).count() == 1, "Gus has not answered Dan")

            func workout(_ browser: Browser, _ name: String, _ visibility: String, daysAgo: Int) async throws {
                let day = app.clock.today.adding(days: -daysAgo).description
                let made = try await browser.post(
                    "/workouts/new",
                    [("sport", "running"), ("day", day), ("time", "07:00"), ("minutes", "40"), ("distance", "8.2"), ("visibility", visibility)],
                    csrfFrom: "/workouts/new")
                #expect(made.status == .seeOther, "\(name): \(made.body.prefix(200))")
                try await rename(made.location, to: name, app)
            }
            try await workout(ben, "Harbour loop", "public", daysAgo: 3)
            try await workout(ben, "Tempo with the club", "followers", daysAgo: 2)
            try await workout(ben, "Secret ride <script>", "private", daysAgo: 1)
            try await workout(eve, "Eve's park run", "followers", daysAgo: 1)
            try await workout(gus, "Gus's hill repeats", "followers", daysAgo: 1)
            try await workout(ana, "My own swim", "private", daysAgo: 0)

            let anas = try await ana.get("/feed")
            #expect(anas.status == .ok)
            #expect(anas.contains("Harbour loop"))
            #expect(anas.contains("Tempo with the club"))
            #expect(anas.contains("My own swim"), "one's own workouts, private ones too")
            #expect(!anas.contains("Secret ride"))
            #expect(!anas.contains("park run"))
            #expect(anas.contains("8.20 km"))
            // Newest first.
            let order = ["My own swim", "Tempo with the club", "Harbour loop"].compactMap { anas.body.range(of: $0)?.lowerBound }
            #expect(order.count == 3 && order == order.sorted())

            for (name, browser) in [("carl", carl), ("dan", dan)] {
                let page = try await browser.get("/feed")
                for hidden in ["Harbour loop", "Tempo", "Secret ride", "park run", "hill repeats", "My own swim"] {
                    #expect(!page.contains(hidden), "\(name) sees \(hidden)")
                }
                #expect(page.contains("Nothing here yet"))
            }
            #expect(try await ana.get("/").contains("Tempo with the club"), "the home page starts with the feed")
            #expect(!(try await carl.get("/").contains("Harbour loop")))

            // Teams: a private team's new member and result reach its members only.
            let slug = try await ana.createTeam("Hidden Futsal", privacy: "private")
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            let benID = try #require(try await User.query(on: app.db).filter(\.$username == "ben").first()?.id)
            try await Membership(teamID: team.requireID(), userID: benID, role: .player).create(on: app.db)
            let url = try await ana.createTeamGame(team: slug, opponent: "Old Town")
            let game = try #require(try await Game.query(on: app.db).first())
            game.startsAt = app.clock.now.addingTimeInterval(-7200)
            try await game.update(on: app.db)
            #expect(try await ana.post("\(url)/result", [("home_score", "4"), ("away_score", "2")], csrfFrom: url).status == .seeOther)
            let after = try await ana.get("/feed")
            #expect(after.contains("Ben</a> joined <a href=\"/teams/\(slug)\">Hidden Futsal</a>"))
            #expect(after.contains("Hidden Futsal 4–2 Old Town"))
            #expect(try await ben.get("/feed").contains("Hidden Futsal 4–2 Old Town"))
            let carls = try await carl.get("/feed")
            #expect(!carls.contains("Hidden Futsal"))
            #expect(try await app.browser().get("/feed").location?.hasPrefix("/login") == true)

            // A child joining a public team shows to its members by name only, as on the roster.
            let open = try await carl.createTeam("Open Futsal", privacy: "public")
            let openTeam = try #require(try await Team.query(on: app.db).filter(\.$slug == open).first())
            let eveID = try #require(try await User.query(on: app.db).filter(\.$username == "eve").first()?.id)
            let danID = try #require(try await User.query(on: app.db).filter(\.$username == "dan").first()?.id)
            try await Membership(teamID: openTeam.requireID(), userID: danID, role: .player).create(on: app.db)
            try await Membership(teamID: openTeam.requireID(), userID: eveID, role: .player).create(on: app.db)
            let dansFeed = try await dan.get("/feed")
            #expect(dansFeed.contains("Eve joined <a href=\"/teams/\(open)\">Open Futsal</a>"), "a fellow player of a public team")
            #expect(!dansFeed.contains("/u/eve"))
            #expect(try await carl.get("/feed").contains("<a href=\"/u/eve\">Eve</a> joined"), "the team's owner sees the profile, as on the roster")
        }
    }

    /// Kudos from the feed: one per person, taken back with the same button, never for one's own
    /// workout or one the giver may not see; the owner gets one note per workout that counts them.
    @Test func kudosAreGivenOnceAndGatheredIntoOneNote() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), cara = app.browser(), carl = app.browser()
            for (browser, name) in [(ana, "ana"), (ben, "ben"), (cara, "cara"), (carl, "carl")] { try await browser.signUp(name) }
            for browser in [ana, cara] { #expect(try await browser.post("/u/ben/follow", [], csrfFrom: "/u/ben").status == .seeOther) }
            let made = try await ben.post(
                "/workouts/new",
                [
                    ("sport", "running"), ("day", app.clock.today.description), ("time", "07:00"), ("minutes", "40"), ("name", "Harbour loop"),
                    ("visibility", "followers"),
                ],
                csrfFrom: "/workouts/new")
            let workout = try #require(made.location)
            try await rename(workout, to: "Harbour loop", app)
            let feed = try await ana.get("/feed")
            #expect(feed.contains(#"<form method="post" action="\#(workout)/kudos" data-kudos="You gave kudos">"#))
            #expect(feed.contains(#"<button type="submit" class="button button-small">Give kudos</button>"#))

            // Back to the same entry of the feed (its anchor), not to the top.
            let entry = "workout:" + String(workout.split(separator: "/").last ?? "")
            #expect(feed.contains(#"id="\#(entry)""#))
            #expect(try await ana.post(workout + "/kudos", [("next", "/feed"), ("entry", entry)], csrfFrom: "/feed").location == "/feed#\(entry)")
            #expect(try await ana.get("/feed").contains(#"<span class="kudos-given">You gave kudos</span>"#))
            #expect(try await ana.get("/feed").contains(#"<a href="\#(workout)/kudos" data-kudos-count>1 kudos</a>"#))
            #expect(try await ben.get("/notifications").contains("Ana gave kudos to Harbour loop"))
            #expect(try await cara.post(workout + "/kudos", [("next", "//evil.example"), ("entry", "x\"><script>")], csrfFrom: "/feed").location == "/")
            let notes = try await ben.get("/notifications")
            #expect(notes.contains("Cara and 1 other gave kudos to Harbour loop"))
            #expect(!notes.contains("Ana gave kudos"), "one note, rewritten")
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "kudos").count() == 1)

            // The list names them to those who may see them.
            let list = try await ben.get(workout + "/kudos")
            #expect(list.contains("<strong>Ana</strong>") && list.contains("<strong>Cara</strong>"))

            // Pressed again (another tab): still one each, and no more notes.
            #expect(try await ana.post(workout + "/kudos", [("next", "/feed")], csrfFrom: "/feed").status == .seeOther)
            #expect(try await rowCount("kudos", app.db) == 2)
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "kudos").count() == 1)
            #expect(try await ben.post(workout + "/kudos", [], csrfFrom: "/feed").status == .unprocessableEntity, "not for one's own")
            #expect(try await carl.post(workout + "/kudos", [], csrfFrom: "/feed").status == .notFound, "Carl does not follow Ben")
            #expect(try await carl.get(workout + "/kudos").status == .notFound)
            #expect(try await rowCount("kudos", app.db) == 2)

            // A child hears nothing from a stranger; a child's kudos to a stranger do not name them.
            let kid = app.browser(), stranger = app.browser()
            try await kid.signUp("kid", birthDate: app.clock.today.adding(days: -13 * 366).description)
            try await stranger.signUp("stranger")
            let kidsRun = try await kid.post(
                "/workouts/new",
                [
                    ("sport", "running"), ("day", app.clock.today.adding(days: -1).description), ("time", "16:00"), ("minutes", "20"),
                    ("visibility", "followers"),
                ],
                csrfFrom: "/workouts/new")
            let kidsPath = try #require(kidsRun.location)
            try await rename(kidsPath, to: "After school jog", app)
            // Stored as public by an older form, it still reaches her followers only: a stranger cannot even open it.
            try await Workout.query(on: app.db).filter(\.$name == "After school jog").set(\.$visibility, to: .public).update()
            #expect(try await stranger.post(kidsPath + "/kudos", [], csrfFrom: "/feed").status == .notFound)
            #expect(!(try await kid.get("/notifications").contains("kudos")))
            let strangersRun = try await stranger.post(
                "/workouts/new",
                [("sport", "running"), ("day", app.clock.today.adding(days: -1).description), ("time", "18:00"), ("minutes", "30"), ("visibility", "public")],
                csrfFrom: "/workouts/new")
            let strangersPath = try #require(strangersRun.location)
            try await rename(strangersPath, to: "Evening run", app)
            #expect(try await kid.post(strangersPath + "/kudos", [], csrfFrom: "/feed").status == .seeOther)
            let told = try await stranger.get("/notifications")
            #expect(told.contains("Someone gave kudos to Evening run"))
            // The page's script gives kudos in place: it asks for JSON and reads the new count.
            let inPlace = try await ana.post(strangersPath + "/kudos", [("next", "/feed")], csrfFrom: "/feed", headers: ["Accept": "application/json"])
            #expect(inPlace.status == .ok && inPlace.json["kudos"] as? Int == 2 && inPlace.json["text"] as? String == "2 kudos")
            #expect(!told.contains("Kid"))
            #expect(!(try await stranger.get(strangersPath + "/kudos").contains("Kid")))
        }
    }

    /// 45 workouts, some at the same moment: three pages of 20, 20 and 5, each entry once, newest
    /// first; a made-up cursor is a 400, not a crash.
    @Test func theFeedPagesWithoutLosingOrRepeating() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let anaID = try #require(try await User.query(on: app.db).first()?.id)
            let base = Int64(app.clock.now.timeIntervalSince1970 * 1000) - 86_400_000
            for n in 0..<45 {
                // Every third pair shares its start: ties are ordered by id, and nothing is lost.
                let start = base - Int64(n / 2) * 600_000
                let workout = Workout(
                    user: anaID, sport: .running, name: "Run \(n)", start: start, end: start + 1_800_000, source: "manual", visibility: .private)
                workout.duration = 1800
                workout.moving = 1800
                try await workout.create(on: app.db)
            }
            var seen: [String] = []
            var path = "/feed"
            for expected in [20, 20, 5] {
                let page = try await ana.get(path)
                #expect(page.status == .ok)
                let names = page.body.matches(of: /(Run \d+)<\/a>/).map { String($0.output.1) }
                #expect(names.count == expected)
                seen += names
                guard let next = page.firstMatch(#"href="([^"]+)" rel="next""#) else { break }
                path = next.replacingOccurrences(of: "&amp;", with: "&")
            }
            #expect(seen.count == 45)
            #expect(Set(seen).count == 45)
            #expect(seen.first == "Run 0" || seen.first == "Run 1")
            #expect(try await ana.get("/feed?before=nonsense").status == .badRequest)
            #expect(try await ana.get("/feed?before=99999999999999999999~x").status == .badRequest)
            for hostile in ["9223372036854775807~x", "-9223372036854775808~x", "10000000000000000~workout:\(SiteURL.id(anaID))", "5~workout:'; DROP TABLE x"] {
                #expect(
                    try await ana.get("/feed?before=" + hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!).status == .badRequest,
                    "\(hostile)")
            }
            #expect(try await ana.get("/feed?before=0~workout:\(SiteURL.id(anaID))").contains("That's everything"))
        }
    }
}

/// Workouts typed in get a name from their sport and time; tests name theirs.
private func rename(_ location: String?, to name: String, _ app: TestApp) async throws {
    let id = try #require(location.flatMap { UUID(uuidString: String($0.dropFirst("/workouts/".count))) })
    let workout = try #require(try await Workout.find(id, on: app.db))
    workout.name = name
    try await workout.save(on: app.db)
}

extension FeedTests {
    /// The workouts query reads windows before the cursor, widening them until a page is full:
    /// a workout a year old still comes, after the recent ones, and paging crosses windows.
    @Test func oldWorkoutsStillComeAfterTheNewOnes() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            #expect(try await ana.post("/u/ben/follow", [], csrfFrom: "/u/ben").status == .seeOther)
            for (days, name) in [(1, "Yesterday's run"), (10, "Ten days ago"), (100, "A hundred days ago"), (400, "Last year's race")] {
                let made = try await ben.post(
                    "/workouts/new",
                    [
                        ("sport", "running"), ("day", app.clock.today.adding(days: -days).description), ("time", "07:00"), ("minutes", "30"),
                        ("visibility", "followers"),
                    ], csrfFrom: "/workouts/new")
                try await rename(made.location, to: name, app)
            }
            let page = try await ana.get("/feed")
            let order = ["Yesterday's run", "Ten days ago", "A hundred days ago", "Last year's race"].map {
                page.body.range(of: $0.replacingOccurrences(of: "'", with: "&#39;"))?.lowerBound
            }
            #expect(order.allSatisfy { $0 != nil })
            #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        }
    }
}
