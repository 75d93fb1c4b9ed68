@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// Comments under feed entries: only where the entry may be seen, as text, one gathered note for
/// the owner, removable by author and owner alone.
@Suite("Feed comments")
struct FeedCommentTests {
    @Test func commentsFollowTheEntrysRulesAndGatherIntoOneNote() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), cai = app.browser(), dan = app.browser()
            for (name, browser) in [("ana", ana), ("ben", ben), ("cai", cai), ("dan", dan)] { try await browser.signUp(name) }
            for browser in [ben, cai] { #expect(try await browser.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther) }
            func workout(_ visibility: String, at time: String) async throws -> String {
                let made = try await ana.post(
                    "/workouts/new",
                    [
                        ("sport", "running"), ("day", app.clock.today.adding(days: -1).description), ("time", time), ("minutes", "30"),
                        ("distance", "5"), ("visibility", visibility),
                    ], csrfFrom: "/workouts/new")
                return "workout:" + String(try #require(made.location).split(separator: "/").last!)
            }
            let shown = try await workout("followers", at: "07:00")
            let hidden = try await workout("private", at: "09:00")
            let page = "/comments?on=\(shown)"
            // A workout's comments live on its page: the form's token comes from there.
            let form = "/workouts/\(shown.dropFirst("workout:".count))"

            #expect(try await ben.get("/feed").contains(">Comment</a>"))
            #expect(try await ben.post("/comments", [("on", shown), ("body", "Nice <script>alert(1)</script> pace!")], csrfFrom: form).status == .seeOther)
            #expect(try await cai.post("/comments", [("on", shown), ("body", "Well done")], csrfFrom: form).status == .seeOther)
            // A workout's comments are read on its page (the old address leads there).
            #expect(try await ana.get(page).location == "/workouts/\(shown.dropFirst("workout:".count))#comments")
            let read = try await ana.get("/workouts/\(shown.dropFirst("workout:".count))")
            #expect(read.contains("Nice &lt;script") && read.contains("pace!"), "HTML shown as text")
            #expect(!read.contains("<script>alert(1)"))
            #expect(try await ben.get("/feed").contains("2 comments"))
            let notes = try await Notification.query(on: app.db).filter(\.$kind == "comment").all()
            #expect(notes.count == 1, "one note per entry until read")
            #expect(notes.first?.text == "Cai and 1 other commented on \(try #require(try await Workout.query(on: app.db).sort(\.$startMS).first()).name)")

            // Dan follows nobody: neither page nor form; nobody may see the private one.
            #expect(try await dan.get(page).status == .notFound)
            #expect(try await dan.post("/comments", [("on", shown), ("body", "hi")], csrfFrom: "/feed").status == .notFound)
            #expect(try await ben.get("/comments?on=\(hidden)").status == .notFound)
            #expect(try await ben.post("/comments", [("on", hidden), ("body", "hi")], csrfFrom: "/feed").status == .notFound)
            for hostile in ["", "workout:", "team:\(SiteURL.id(UUID()))", "workout:../../x", "plan:\(SiteURL.id(UUID()))"] {
                #expect(try await ben.get("/comments?on=\(hostile)").status == .notFound, "\(hostile)")
            }

            let empty = try await ben.post("/comments", [("on", shown), ("body", "   ")], csrfFrom: form)
            #expect(empty.status == .unprocessableEntity)
            #expect(empty.contains("Write something first"))
            let long = try await ben.post("/comments", [("on", shown), ("body", String(repeating: "é", count: 501))], csrfFrom: form)
            #expect(long.status == .unprocessableEntity)
            #expect(long.contains("(it has 501)"))
            #expect(long.contains(String(repeating: "é", count: 501)), "what was typed stays")
            #expect(try await FeedComment.query(on: app.db).count() == 2)

            // Removing: the author or the owner, nobody else.
            let bens = try #require(try await FeedComment.query(on: app.db).filter(\.$body ~~ "Nice").first())
            let remove = "/comments/\(SiteURL.id(try bens.requireID()))/delete"
            #expect(try await cai.post(remove, [], csrfFrom: form).status == .notFound)
            #expect(try await dan.post(remove, [], csrfFrom: "/feed").status == .notFound)
            #expect(try await ana.post(remove, [], csrfFrom: form).status == .seeOther)
            #expect(try await FeedComment.query(on: app.db).count() == 1)
        }
    }

    @Test func aPlansCommentsAreForItsAudience() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), out = app.browser()
            for (name, browser) in [("ana", ana), ("ben", ben), ("out", out)] { try await browser.signUp(name) }
            try await ana.befriend(ben, "ben", me: "ana")
            let when = app.gameDay(2)
            let posted = try await ana.post(
                "/plans/new",
                [
                    ("text", "Swim at 7?"), ("sport", "other"), ("day", when.day), ("time", "07:00"), ("duration_minutes", "45"),
                    ("capacity", "4"), ("audience", "friends"),
                ], csrfFrom: "/plans/new")
            let subject = "plan:" + String(try #require(posted.location).split(separator: "/").last!)
            #expect(try await ben.post("/comments", [("on", subject), ("body", "Which pool?")], csrfFrom: "/feed").status == .seeOther)
            #expect(try await ana.get("/comments?on=\(subject)").contains("Which pool?"))
            #expect(try await out.get("/comments?on=\(subject)").status == .notFound)
            #expect(try await ben.get("/feed").contains("1 comment<"))
        }
    }
}
