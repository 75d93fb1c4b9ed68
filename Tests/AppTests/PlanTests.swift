@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// Plans: "who's in?" posts that become a small private game, seen only by the audience chosen.
@Suite("Plans")
struct PlanTests {
    func planFields(_ app: TestApp, text: String = "Running at the lake at 6, who's in?", audience: String = "friends", capacity: String = "8")
        -> [(String, String)]
    {
        let when = app.gameDay(2)
        return [
            ("text", text), ("sport", "running"), ("day", when.day), ("time", "18:00"), ("duration_minutes", "60"),
            ("place_name", "The lake, north gate"), ("capacity", capacity), ("audience", audience),
        ]
    }

    /// Ana and Ben follow each other (friends); Carl follows Ana but Ana does not follow him back;
    /// Dan is a stranger. A plan for friends reaches Ben alone; Ben's "I'm in" puts the game in
    /// both their games and calendars and tells Ana; the others can open neither plan nor game.
    @Test func aPlanForFriendsBecomesTheirGameAndNobodyElseSeesIt() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), carl = app.browser(), dan = app.browser()
            for (name, browser) in [("ana", ana), ("ben", ben), ("carl", carl), ("dan", dan)] { try await browser.signUp(name) }
            #expect(try await ana.post("/u/ben/follow", [], csrfFrom: "/u/ben").status == .seeOther)
            #expect(try await ben.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther)
            #expect(try await carl.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther)

            let posted = try await ana.post("/plans/new", planFields(app), csrfFrom: "/plans/new")
            #expect(posted.status == .seeOther, "\(posted.body.prefix(400))")
            let planURL = try #require(posted.location)
            let game = try #require(try await Game.query(on: app.db).first())
            let gameURL = "/games/\(SiteURL.id(try game.requireID()))"
            #expect(game.privacy == "private")
            #expect(game.placeName == "The lake, north gate")

            // Posting tells its audience: Ben, her friend, hears of it; Carl only follows her, Dan is nobody to her.
            let told = try await Notification.query(on: app.db).filter(\.$kind == "plan_posted").all()
            let benID = try #require(try await User.query(on: app.db).filter(\.$username == "ben").first()?.requireID())
            #expect(told.map { $0.$recipient.id } == [benID])
            #expect(told.first?.text == "Ana posted a plan: “Running at the lake at 6, who's in?”. Who's in?")
            #expect(told.first?.link == planURL)

            let bens = try await ben.get("/feed")
            #expect(bens.contains("Running at the lake at 6, who&#39;s in?"))
            #expect(bens.contains("I&#39;m in"))
            for (name, browser) in [("carl", carl), ("dan", dan)] {
                #expect(!(try await browser.get("/feed").contains("Running at the lake")), "\(name) sees the plan in the feed")
                #expect(try await browser.get(planURL).status == .notFound, "\(name) opens the plan")
                #expect(try await browser.get(gameURL).status == .notFound, "\(name) opens the game")
                #expect(try await browser.post("\(planURL)/in", [], csrfFrom: "/feed").status == .notFound, "\(name) joins")
            }
            #expect(try await ben.get(gameURL).status == .notFound, "the game is for its players; the plan is the way in")
            #expect(!(try await ben.get("/find?lat=55.68&lon=12.57&radius_km=50").contains(gameURL)))

            let joined = try await ben.post("\(planURL)/in", [], csrfFrom: planURL)
            #expect(joined.status == .seeOther)
            let page = try await ben.get(planURL)
            #expect(page.contains("You&#39;re in."))
            #expect(page.contains(gameURL))
            #expect(try await ben.get(gameURL).status == .ok)
            #expect(try await ben.get("/games").contains(gameURL), "in Ben's games")
            #expect(try await ana.get("/games").contains(gameURL), "in Ana's games")
            for browser in [ana, ben] {
                let settings = try await browser.get("/settings/calendar")
                let feedURL = try #require(settings.firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#))
                let calendar = try await app.browser().get(feedURL)
                #expect(calendar.contains("Running"), "the game is in the calendar feed")
            }
            #expect(try await ben.post("\(planURL)/in", [], csrfFrom: planURL).status == .seeOther, "a second click changes nothing")
            #expect(try await GamePlayer.query(on: app.db).count() == 2)
            let note = try #require(try await Notification.query(on: app.db).filter(\.$kind == "plan_joined").first())
            #expect(note.text.hasPrefix("Ben is in"))
            #expect(!(try await ben.get("/feed").contains(">I&#39;m in</button>")), "no button once in")

            // Ana calls it off: Ben hears, the game is cancelled in both calendars, the plan says so.
            #expect(try await ben.post("\(planURL)/cancel", [("confirm", "yes")], csrfFrom: planURL).status == .forbidden)
            #expect(try await ana.post("\(planURL)/cancel", [], csrfFrom: planURL).status == .unprocessableEntity, "unconfirmed")
            #expect(try await ana.post("\(planURL)/cancel", [("confirm", "yes")], csrfFrom: planURL).status == .seeOther)
            #expect(try await Game.query(on: app.db).first()?.status == .cancelled)
            #expect(try await ben.get(planURL).contains("This plan was called off."))
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "game_cancelled").count() == 1)
            #expect(!(try await ben.get("/feed").contains(">I&#39;m in</button>")))
        }
    }

    /// A team plan reaches the team's members only; a full plan puts the next person on the waitlist.
    @Test func aTeamPlanReachesItsMembersAndAFullOneWaitlists() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), eve = app.browser(), out = app.browser()
            for (name, browser) in [("ana", ana), ("ben", ben), ("eve", eve), ("out", out)] { try await browser.signUp(name) }
            let slug = try await ana.createTeam("Lake Runners", privacy: "private")
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            for name in ["ben", "eve"] {
                let id = try #require(try await User.query(on: app.db).filter(\.$username == name).first()?.id)
                try await Membership(teamID: team.requireID(), userID: id, role: .player).create(on: app.db)
            }
            #expect(try await ana.get("/plans/new").contains("Members of Lake Runners"))
            let posted = try await ana.post("/plans/new", planFields(app, audience: "team:\(slug)", capacity: "2"), csrfFrom: "/plans/new")
            let planURL = try #require(posted.location)
            #expect(try await out.get(planURL).status == .notFound)
            #expect(!(try await out.get("/feed").contains("Running at the lake")))
            #expect(try await ben.post("\(planURL)/in", [], csrfFrom: planURL).status == .seeOther)
            #expect(try await eve.get("/feed").contains("Join the waitlist"))
            #expect(try await eve.post("\(planURL)/in", [], csrfFrom: planURL).status == .seeOther)
            let statuses = try await GamePlayer.query(on: app.db).all().map(\.status)
            #expect(statuses.filter { $0 == .joined }.count == 2)
            #expect(statuses.filter { $0 == .waitlisted }.count == 1)
            // Anyone may join a public team, so its members are not an audience the poster chose: a
            // team made public later no longer sees the plan, and new plans cannot go to it.
            let team2 = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            team2.privacy = .public
            try await team2.save(on: app.db)
            #expect(!(try await ana.get("/plans/new").contains("Members of Lake Runners")))
            let outID = try #require(try await User.query(on: app.db).filter(\.$username == "out").first()?.id)
            try await Membership(teamID: team2.requireID(), userID: outID, role: .player).create(on: app.db)
            #expect(try await out.get(planURL).status == .notFound, "joined the now public team: still no plan")
            #expect(try await ana.post("/plans/new", planFields(app, audience: "team:\(slug)"), csrfFrom: "/plans/new").status == .unprocessableEntity)
            // The game stays among its players: its organiser cannot list it publicly.
            let game = try #require(try await Game.query(on: app.db).first())
            let gameURL = "/games/\(SiteURL.id(try game.requireID()))"
            let listed = try await ana.post("\(gameURL)/edit", app.pickupFields(sport: "running", privacy: "public", days: 2), csrfFrom: "\(gameURL)/edit")
            #expect(listed.status == .ok || listed.status == .unprocessableEntity)
            #expect(listed.contains("A game made from a plan stays among the people in it"))
            #expect(try await Game.query(on: app.db).first()?.privacy == "private")
            // Only one's own teams can be chosen.
            let other = try await out.createTeam("Other Club")
            let refused = try await ana.post("/plans/new", planFields(app, audience: "team:\(other)"), csrfFrom: "/plans/new")
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.contains("Choose who sees the plan"))
        }
    }

    /// Empty, over-long and hostile posts: 422 with the form kept, or text shown as text.
    @Test func badPlansAreRefusedWithTheFormKept() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let empty = try await ana.post("/plans/new", planFields(app, text: "   "), csrfFrom: "/plans/new")
            #expect(empty.status == .unprocessableEntity)
            #expect(empty.contains("Say what you plan"))
            #expect(empty.contains("The lake, north gate"), "what was typed stays")
            let long = try await ana.post("/plans/new", planFields(app, text: String(repeating: "x", count: 281)), csrfFrom: "/plans/new")
            #expect(long.status == .unprocessableEntity)
            #expect(long.contains("Keep it to 280 characters (it has 281)"))
            var past = planFields(app)
            past[2] = ("day", app.clock.today.adding(days: -1).description)
            #expect(try await ana.post("/plans/new", past, csrfFrom: "/plans/new").contains("Choose a date and time in the future"))
            var nonsense = planFields(app, capacity: "1e9")
            nonsense[1] = ("sport", "quidditch")
            let refused = try await ana.post("/plans/new", nonsense, csrfFrom: "/plans/new")
            #expect(refused.contains("Choose a sport from the list"))
            #expect(refused.contains("Enter how many people in all"))
            #expect(try await Plan.query(on: app.db).count() == 0)
            #expect(try await Game.query(on: app.db).count() == 0, "nothing half written")

            let hostile = try await ana.post("/plans/new", planFields(app, text: "<script>alert(1)</script> who's in?"), csrfFrom: "/plans/new")
            let page = try await ana.get(try #require(hostile.location))
            #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!page.contains("<script>alert(1)"))
            #expect(try await ana.get("/plans/not-a-plan").status == .notFound)
            #expect(try await ana.post("/plans/\(SiteURL.id(UUID()))/in", [], csrfFrom: "/feed").status == .notFound)
            #expect(try await ana.post("\(try #require(hostile.location))/in", [], csrfFrom: "/feed").status == .forbidden, "one's own plan")
        }
    }
}
