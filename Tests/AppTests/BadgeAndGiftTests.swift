@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// Badges come from the job runner, once each; gifts go only where the sender may look, a few a day.
@Suite("Badges and gifts")
struct BadgeAndGiftTests {
    func log(_ browser: Browser, minutes: Int, visibility: String, at time: String = "07:00", _ app: TestApp) async throws -> String {
        let made = try await browser.post(
            "/workouts/new",
            [
                ("sport", "running"), ("day", app.clock.today.description), ("time", time), ("minutes", String(minutes)), ("distance", "10"),
                ("visibility", visibility),
            ], csrfFrom: "/workouts/new")
        #expect(made.status == .seeOther)
        return try #require(made.location)
    }

    @Test func aWorkoutEarnsBadgesOnceAndFollowersSeeThem() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), carl = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            try await carl.signUp("carl")
            #expect(try await ben.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther)
            #expect(try await ana.get("/badges").contains("You have 0 of"))
            _ = try await log(ana, minutes: 65, visibility: "private", app)

            app.clock.advance(by: 120)
            try await app.app.jobs.runDue(app.app)
            let badges = try await Badge.query(on: app.db).all().map(\.kind).sorted()
            #expect(badges == ["active_hour", "first_workout"])
            let page = try await ana.get("/badges")
            #expect(page.contains("You have 2 of"))
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "badge").count() == 2)
            // Later sweeps, and a second award, give nothing twice.
            app.clock.advance(by: 60)
            try await app.app.jobs.runDue(app.app)
            let anaID = try #require(try await User.query(on: app.db).filter(\.$username == "ana").first()?.id)
            try await BadgeAwards.award(to: anaID, now: app.clock.now, on: app.db)
            #expect(try await Badge.query(on: app.db).count() == 2)
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "badge").count() == 2)

            // Earned from a private workout: Ana's alone, until what she shares earns it too.
            #expect(!(try await ben.get("/feed").contains("earned a badge")), "a private workout's badge tells nobody")
            #expect(!(try await ben.get("/u/ana").contains("First workout")))
            _ = try await log(ana, minutes: 61, visibility: "followers", at: "09:00", app)
            app.clock.advance(by: 120)
            try await app.app.jobs.runDue(app.app)
            #expect(try await Badge.query(on: app.db).filter(\.$shared == true).count() == 2)
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "badge").count() == 2, "no second note for a badge shown")
            let bens = try await ben.get("/feed")
            #expect(bens.contains("earned a badge:"))
            #expect(bens.contains("An active hour"))
            #expect(bens.contains("Send a gift"))
            #expect(!(try await carl.get("/feed").contains("earned a badge")), "not a follower")
            #expect(!(try await ben.get("/u/ana").contains("First workout")), "a profile shows only badges public workouts earn")
            _ = try await log(ana, minutes: 40, visibility: "public", at: "10:30", app)
            app.clock.advance(by: 120)
            try await app.app.jobs.runDue(app.app)
            #expect(try await app.browser().get("/u/ana").contains("First workout"), "on the profile, for anyone")
            #expect(!(try await app.browser().get("/u/ana").contains("An active hour")), "40 public minutes are not an hour")

            // Ben sends a gift for the badge; Carl cannot even open the form.
            let badge = try #require(try await Badge.query(on: app.db).filter(\.$kind == "active_hour").first())
            let subject = "badge:\(SiteURL.id(try badge.requireID()))"
            let form = "/gifts/new?for=\(subject)"
            #expect(try await carl.get(form).status == .notFound)
            #expect(try await carl.post("/gifts/new", [("for", subject), ("sticker", "flame")], csrfFrom: "/feed").status == .notFound)
            #expect(try await ana.get(form).status == .unprocessableEntity, "not to oneself")
            #expect(try await ben.get(form).contains("Send Ana a gift"))
            let sent = try await ben.post("/gifts/new", [("for", subject), ("sticker", "flame"), ("note", "<b>Go</b> Ana!")], csrfFrom: form)
            #expect(sent.status == .seeOther)
            let got = try await ana.get("/badges")
            #expect(got.contains("🔥"))
            #expect(got.contains("&lt;b&gt;Go&lt;/b&gt; Ana!"))
            let note = try #require(try await Notification.query(on: app.db).filter(\.$kind == "gift").first())
            #expect(note.text.hasPrefix("Ben sent you 🔥 for the badge"))
        }
    }

    @Test func giftsFollowWhatTheSenderMaySeeAndAreLimited() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            let hidden = try await log(ana, minutes: 30, visibility: "private", at: "06:00", app)
            let shown = try await log(ana, minutes: 30, visibility: "public", at: "08:00", app)
            let hiddenSubject = "workout:" + String(hidden.split(separator: "/").last!)
            let shownSubject = "workout:" + String(shown.split(separator: "/").last!)
            #expect(try await ben.get("/gifts/new?for=\(hiddenSubject)").status == .notFound)
            #expect(try await ben.post("/gifts/new", [("for", hiddenSubject), ("sticker", "star")], csrfFrom: "/feed").status == .notFound)
            for hostile in ["workout:nope", "team:\(SiteURL.id(UUID()))", "", "badge:../../etc/passwd"] {
                #expect(try await ben.get("/gifts/new?for=\(hostile)").status == .notFound, "\(hostile)")
            }
            // The workout page offers kudos, comments and a gift to those who may see it.
            let seen = try await ben.get(shown)
            #expect(seen.contains("Give kudos"))
            #expect(seen.contains("/gifts/new?for=workout%3A"))
            #expect(try await ben.post("\(shown)/kudos", [], csrfFrom: shown).status == .seeOther)
            #expect(try await ben.get(shown).contains("You gave kudos"))
            #expect(!(try await ana.get(shown).contains("Give kudos")), "not on one's own")
            #expect(!(try await app.browser().get(shown).contains("Give kudos")), "not for visitors")
            let form = "/gifts/new?for=\(shownSubject)"
            let bogus = try await ben.post(
                "/gifts/new", [("for", shownSubject), ("sticker", "bomb"), ("note", String(repeating: "a", count: 141))], csrfFrom: form)
            #expect(bogus.status == .unprocessableEntity)
            #expect(bogus.contains("Choose a sticker"))
            #expect(bogus.contains("Keep the note to 140 characters (it has 141)"))
            for _ in 0..<Gift.perDay {
                #expect(try await ben.post("/gifts/new", [("for", shownSubject), ("sticker", "medal")], csrfFrom: form).status == .seeOther)
            }
            let capped = try await ben.post("/gifts/new", [("for", shownSubject), ("sticker", "medal")], csrfFrom: form)
            #expect(capped.status == .unprocessableEntity)
            #expect(capped.contains("You&#39;ve sent 5 gifts in the last 24 hours"))
            #expect(try await Gift.query(on: app.db).count() == Gift.perDay)
            app.clock.advance(by: 86_401)
            #expect(try await ben.post("/gifts/new", [("for", shownSubject), ("sticker", "medal")], csrfFrom: form).status == .seeOther)
        }
    }
}
