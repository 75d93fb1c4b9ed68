@testable import App
import FieldhouseKit
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

/// Holes a privacy review found (issue 18), each with the test that failed before its fix.
@Suite("Privacy: strangers, children and requests")
struct PrivacyTests {
    /// A stranger cannot tell a private person from nobody, and cannot reach a child at all: requests to
    /// The calendar feed's secret is never stored: a copy of the database holds only its hash, yet
    /// the settings page shows the same working address on every visit and after a restart.
    @Test func calendarFeedTokensAreNotStored() async throws {
        try await withStore { store in
            var feedURL = ""
            var token = ""
            var cookie = ""
            do {
                let app = try await TestApp.start(store)
                let person = app.browser()
                try await person.signUp("feeder")
                let settings = try await person.get("/settings/calendar")
                feedURL = try #require(settings.firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#))
                token = String(feedURL.dropFirst("/calendar/".count).dropLast(4))
                #expect(try await person.get("/settings/calendar").contains(feedURL), "the same address on the next visit")
                #expect(try await app.browser().get(feedURL).status == .ok)
                let rows = try await (app.db as! any SQLDatabase).raw("SELECT * FROM users").all()
                for row in rows {
                    for column in row.allColumns {
                        #expect((try? row.decode(column: column, as: String?.self)) != token, "\(column) holds the token")
                    }
                }
                let stored = try await User.query(on: app.db).filter(\.$username == "feeder").first()?.calendarTokenHash
                #expect(stored == RandomToken.hash(token))
                cookie = try #require(person.cookies[SessionMiddleware.cookieName])
                await app.stop()
            }
            let app = try await TestApp.start(store)
            #expect(try await app.browser().get(feedURL).status == .ok, "the address survives a restart")
            let person = app.browser()
            person.setCookie(SessionMiddleware.cookieName, cookie)
            #expect(try await person.get("/settings/calendar").contains(feedURL))
            try await person.post("/settings/calendar/reset", [], csrfFrom: "/settings/calendar")
            #expect(try await app.browser().get(feedURL).status == .notFound, "the old address stops working")
            let renewed = try await person.get("/settings/calendar")
            let newURL = try #require(renewed.firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#))
            #expect(newURL != feedURL)
            #expect(try await app.browser().get(newURL).status == .ok)
            await app.stop()
        }
    }

    /// a 14-year-old from someone she does not follow and shares no team with are answered as sent and dropped.
    @Test func strangersCannotFindPrivatePeopleOrReachChildren() async throws {
        try await withApp { app in
            let sam = app.browser(), ada = app.browser(), kid = app.browser()
            try await sam.signUp("sam", name: "Sam Stranger")
            try await ada.signUp("ada", name: "Ada Private")
            try await ada.post("/settings/privacy", [("visibility", "private")], csrfFrom: "/settings/privacy")
            try await kid.signUp("kid", name: "Kim Kid", birthDate: "2012-03-01")
            let team = try await sam.createTeam("Strangers FC", privacy: "public")

            // Coaching: a private adult reads exactly like a username nobody has, and hears nothing.
            let nobody = try await sam.post("/coach/invite", [("username", "nobody_at_all")], csrfFrom: "/coach")
            let hidden = try await sam.post("/coach/invite", [("username", "ada")], csrfFrom: "/coach")
            #expect(nobody.status == hidden.status)
            #expect(hidden.contains("There is nobody called ada here."))
            #expect(!hidden.contains("Ada Private"))
            // A team invitation, the same.
            let hiddenInvite = try await sam.post("/teams/\(team)/invites", [("username", "ada")], csrfFrom: "/teams/\(team)")
            #expect(hiddenInvite.status == .unprocessableEntity && hiddenInvite.contains("Nobody has the username"))

            // The child's profile is for followers, so to a stranger she does not exist at all.
            let unknownKid = try await sam.post("/coach/invite", [("username", "kid")], csrfFrom: "/coach")
            #expect(unknownKid.status == nobody.status && unknownKid.contains("There is nobody called kid here."))
            let unknownInvite = try await sam.post("/teams/\(team)/invites", [("username", "kid")], csrfFrom: "/teams/\(team)")
            #expect(unknownInvite.status == .unprocessableEntity && unknownInvite.contains("Nobody has the username") && !unknownInvite.contains("Kim Kid"))

            // With a public profile: to the stranger it looks sent, exactly as to anyone (his lists show it waiting), and she sees nothing.
            try await kid.post("/settings/privacy", [("visibility", "public")], csrfFrom: "/settings/privacy")
            let toKid = try await sam.post("/coach/invite", [("username", "kid")], csrfFrom: "/coach")
            #expect(toKid.status == .seeOther)
            let kidInvite = try await sam.post("/teams/\(team)/invites", [("username", "kid")], csrfFrom: "/teams/\(team)")
            #expect(kidInvite.status == .seeOther)
            #expect(try await sam.get("/coach").contains("Kim Kid"), "his outgoing requests read as for anyone")
            #expect(try await sam.get("/teams/\(team)").contains("Kim Kid"), "his pending invitations too")
            #expect(!(try await kid.get("/settings/coaches").contains("Sam Stranger")))
            #expect(!(try await kid.get("/teams").contains("Strangers FC")))
            #expect(try await rowCount("notifications", app.db) == 0)
            // A stranger asking a child to coach *him* is held back the same way.
            let other = app.browser()
            try await other.signUp("other", name: "Otto Other")
            #expect(try await other.post("/settings/coaches", [("username", "kid")], csrfFrom: "/settings/coaches").status == .seeOther)
            #expect(!(try await kid.get("/coach").contains("Otto Other")))
            #expect(try await rowCount("notifications", app.db) == 0)

            // Joining her public team (anyone can, at once) does not make him someone she knows.
            let kidsTeam = try await kid.createTeam("Kids FC", privacy: "public")
            #expect(try await sam.post("/teams/\(kidsTeam)/join", [], csrfFrom: "/teams/\(kidsTeam)").status == .seeOther)
            #expect(try await sam.post("/coach/invite", [("username", "kid")], csrfFrom: "/coach").status == .seeOther)
            #expect(!(try await kid.get("/settings/coaches").contains("Sam Stranger")))

            // Once she follows him, asking again reaches her.
            #expect(try await kid.post("/u/sam/follow", [], csrfFrom: "/u/sam").status == .seeOther)
            #expect(try await sam.post("/coach/invite", [("username", "kid")], csrfFrom: "/coach").status == .seeOther)
            #expect(try await sam.post("/teams/\(team)/invites", [("username", "kid")], csrfFrom: "/teams/\(team)").status == .seeOther)
            #expect(try await kid.get("/settings/coaches").contains("Sam Stranger"))
            #expect(try await kid.get("/teams").contains("Strangers FC"))
            let told = try await kid.get("/notifications")
            #expect(told.contains("Sam Stranger"))
        }
    }

    /// A public run's page and exports show the run's own samples, not those of a private walk the
    /// owner recorded at the same time through the device API.
    @Test func aPublicWorkoutShowsOnlyItsOwnSamples() async throws {
        try await withApp { app in
            let ana = app.browser(), stranger = app.browser()
            try await ana.signUp("ana")
            try await stranger.signUp("stranger")
            let token = try await ana.deviceToken(allDay: false)
            let start = app.clock.now.addingTimeInterval(-3 * 3600).rounded
            let run = try await ana.uploadFile(syntheticGPX(start: start, seconds: 3600), filename: "run.gpx", token: token)
            #expect(run.status == .created)
            let runID = try #require(run.workout["id"] as? String)
            let iso = ISO8601DateFormatter()
            let walk = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: """
                    {"external_id": "walk-1", "sport": "walking", "start": "\(iso.string(from: start.addingTimeInterval(1200)))",
                     "end": "\(iso.string(from: start.addingTimeInterval(2400)))"}
                    """)
            #expect(walk.status == .created)
            try await Workout.query(on: app.db).filter(\.$sport == "walking").set(\.$visibility, to: .private).update()
            // The walk's positions, half a second after the run's, far to the north.
            let base = Int64(start.timeIntervalSince1970 * 1000)
            let locations = (0..<60).map { #"{"t": \#(base + 1_200_500 + Int64($0) * 10_000), "lat": 55.9123, "lon": 12.4}"# }.joined(separator: ",")
            let samples = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"locations": [\#(locations)]}"#)
            #expect((samples.json["stored"] as? [String: Int])?["locations"] == 60)

            #expect(try await ana.get("/workouts/\(runID).gpx").contains("55.9123"), "the owner sees everything in the window")
            for path in ["/workouts/\(runID).gpx", "/workouts/\(runID).csv"] {
                let export = try await stranger.get(path)
                #expect(export.status == .ok && export.contains("55.6761"), "\(path)")
                #expect(!export.contains("55.9123"), "\(path) shows the private walk")
            }
            #expect(try await stranger.get("/workouts/\(runID)").status == .ok)
        }
    }

    @Test func childrenShareARouteWithFollowersAtMost() async throws {
        try await withApp { app in
            let kid = app.browser()
            try await kid.signUp("kid", birthDate: "2012-03-01")
            let token = try await kid.deviceToken(allDay: false)
            let run = try await kid.uploadFile(
                syntheticGPX(start: app.clock.now.addingTimeInterval(-7200).rounded, seconds: 600), filename: "run.gpx", token: token)
            let id = try #require(run.workout["id"] as? String)
            let edit = "/workouts/\(id)/edit"
            let refused = try await kid.post(edit, [("name", "Run"), ("sport", "running"), ("visibility", "public")], csrfFrom: edit)
            #expect(refused.status == .unprocessableEntity && refused.contains("People under 16 can share a workout with a map with their followers at most"))
            #expect(try await kid.post(edit, [("name", "Run"), ("sport", "running"), ("visibility", "followers")], csrfFrom: edit).status == .seeOther)
            #expect(try await Workout.query(on: app.db).first()?.visibility == .followers)
        }
    }

    @Test func childrensChallengeFormsStartWithoutAPlace() async throws {
        try await withApp { app in
            let kid = app.browser(), adult = app.browser()
            try await kid.signUp("kid", birthDate: "2012-03-01")
            try await adult.signUp("adult")
            #expect(try await kid.get("/challenges/new").contains(#"id="location-none" name="location" value="none" checked"#))
            #expect(try await adult.get("/challenges/new").contains(#"id="location-photo" name="location" value="photo" checked"#))
        }
    }
}
