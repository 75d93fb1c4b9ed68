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
                let rows = try await app.db.sql.raw("SELECT * FROM users").all()
                #expect(!rows.isEmpty && rows[0].allColumns.count > 20)
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
            #expect(try await sam.get("/coach").main.contains("Kim Kid"), "his outgoing requests read as for anyone")
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
            #expect(try await kid.get("/settings/coaches").main.contains("Sam Stranger"))
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
            // A coach's copy is the run's alone; anyone else may look at the page but not take the track.
            let coach = app.browser()
            try await coach.signUp("coach")
            try await ana.getsCoached(by: coach)
            for path in ["/workouts/\(runID).gpx", "/workouts/\(runID).csv"] {
                let export = try await coach.get(path)
                #expect(export.status == .ok && export.contains("55.6761"), "\(path)")
                #expect(!export.contains("55.9123"), "\(path) shows the private walk")
                #expect(try await stranger.get(path).status == .notFound, "a stranger downloads \(path)")
            }
            let page = try await stranger.get("/workouts/\(runID)")
            #expect(page.status == .ok && !page.contains(".gpx") && !page.contains("Export:"))
        }
    }

    @Test func childrenShareWorkoutsWithFollowersAtMost() async throws {
        try await withApp { app in
            let kid = app.browser(), follower = app.browser(), stranger = app.browser(), visitor = app.browser()
            try await kid.signUp("kid", birthDate: "2012-03-01")
            try await follower.signUp("follower")
            try await stranger.signUp("stranger")
            let rule = "People under 16 share their workouts with their followers at most"

            // The forms offer no "everyone", and a forged one is refused, storing nothing.
            let form = try await kid.get("/workouts/new")
            #expect(form.contains(rule) && !form.contains(#"value="public""#))
            let start = LocalTime.parts(of: app.clock.now.addingTimeInterval(-7200), zone: "UTC")
            let forged = try await kid.post(
                "/workouts/new", [("sport", "running"), ("day", start.day), ("time", start.time), ("minutes", "30"), ("visibility", "public")],
                csrfFrom: "/workouts/new")
            #expect(forged.status == .unprocessableEntity && forged.contains(rule))
            #expect(try await Workout.query(on: app.db).count() == 0)

            // A workout stored as public (an older form) that gets a route: the reading rule caps it.
            let token = try await kid.deviceToken(allDay: false)
            let run = try await kid.uploadFile(
                syntheticGPX(start: app.clock.now.addingTimeInterval(-7200).rounded, seconds: 600), filename: "run.gpx", token: token)
            let id = try #require(run.workout["id"] as? String)
            try await Workout.query(on: app.db).set(\.$visibility, to: .public).update()
            let kidID = try #require(try await User.query(on: app.db).filter(\.$username == "kid").first()?.id)
            let followerID = try #require(try await User.query(on: app.db).filter(\.$username == "follower").first()?.id)
            try await Follow(follower: followerID, followee: kidID, status: .accepted).create(on: app.db)
            for path in ["/workouts/\(id)", "/workouts/\(id).gpx", "/workouts/\(id).csv"] {
                #expect(try await visitor.get(path).status == .notFound, "a visitor: \(path)")
                #expect(try await stranger.get(path).status == .notFound, "a stranger: \(path)")
                // A follower sees the page; the track's files are for the owner and her coaches.
                #expect(try await follower.get(path).status == (path.hasSuffix("/workouts/\(id)") ? .ok : .notFound), "a follower: \(path)")
            }
            let own = try await kid.get("/workouts/\(id)")
            #expect(own.contains("visible to: followers") && own.contains(rule))

            let edit = "/workouts/\(id)/edit"
            let editForm = try await kid.get(edit)
            #expect(!editForm.contains(#"value="public""#) && editForm.contains(#"value="followers" checked"#))
            let refused = try await kid.post(edit, [("name", "Run"), ("sport", "running"), ("visibility", "public")], csrfFrom: edit)
            #expect(refused.status == .unprocessableEntity && refused.contains(rule))
            #expect(try await Workout.query(on: app.db).first()?.visibility == .public, "a refused form changes nothing")
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

/// Issue 41's scenarios 2 and 3: what a public challenge and the news of a response tell others
/// about a child who did something, and about anyone's places.
@Suite struct ActorAndPlaceTests {
    @Test func publicChallengeRepliesHideChildrenAndPlacesInsidePrivacyZones() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let kid = app.browser()
            try await kid.signUp("kid", name: "Kim Young", birthDate: "2012-03-01")
            // Eve keeps a privacy zone round her home, where she answers from.
            #expect(
                try await cast.eve.post(
                    "/settings/privacy-zones", [("name", "Home"), ("lat", "55.6900"), ("lon", "12.5900"), ("radius", "500")],
                    csrfFrom: "/settings/privacy-zones"
                ).status == .seeOther)
            let url = try #require(
                try await cast.ana.sendChallenge(to: [], caption: "Find a red door", extra: [("public", "on")], location: "none").location)
            let here = { (lat: String, lon: String) in [("location", "here"), ("lat", lat), ("lon", lon)] }
            #expect(try await kid.reply(to: url, fields: here("55.7101", "12.5101")).status == .seeOther)
            #expect(try await cast.eve.reply(to: url, fields: here("55.6902", "12.5902")).status == .seeOther)
            #expect(try await cast.ben.reply(to: url, fields: here("55.6503", "12.5503")).status == .seeOther)
            for response in try await ChallengeResponse.query(on: app.db).all() {
                try await cast.ana.post("\(url)/responses/\(try response.requireID().uuidString.lowercased())/accept", [("stars", "4")], csrfFrom: url)
            }
            #expect(try await ChallengeResponse.query(on: app.db).filter(\.$status == .accepted).count() == 3)

            // Dan, an adult stranger: no child's name nor place, no place inside Eve's zone, Ben's place.
            let dan = try await cast.dan.get(url)
            #expect(!dan.contains("Kim Young") && !dan.contains("55.7101") && !dan.contains("55.71010") && !dan.contains("/u/kid"))
            #expect(dan.contains("A player under 16"))
            #expect(dan.contains("Eve Park") && !dan.contains("55.6902") && !dan.contains("55.69020"))
            #expect(dan.contains("Ben Ode") && dan.contains("55.6503"))
            // The challenge has no place to show: no distance to it either, which would draw a ring round a hidden one.
            #expect(!dan.contains("from the challenge"))
            // The sender has no more right to a stranger child's place or a replier's home.
            let ana = try await cast.ana.get(url)
            #expect(!ana.contains("Kim Young") && !ana.contains("55.7101") && !ana.contains("55.6902"))
            // Each replier sees their own place.
            #expect(try await kid.get(url).contains("55.7101"))
            #expect(try await cast.eve.get(url).contains("55.6902"))
            // The judge's list and the reply's news say "Someone" for the child.
            let notes = try await cast.ana.get("/notifications")
            #expect(!notes.contains("Kim Young") && notes.contains("Someone replied to your challenge"))
        }
    }

    @Test func commentAndGiftNewsNameAHiddenChildAsSomeone() async throws {
        try await withApp { app in
            let adult = app.browser(), kid = app.browser()
            try await adult.signUp("dana", name: "Dana Grown")
            try await kid.signUp("kid", name: "Kim Young", birthDate: "2012-03-01")
            try await User.query(on: app.db).filter(\.$username == "dana").set(\.$emailConfirmedAt, to: app.clock.now).update()
            let danaID = try #require(try await User.query(on: app.db).filter(\.$username == "dana").first()?.id)
            for topic in NotificationTopic.allCases {
                try await NotificationSetting(user: danaID, topic: topic, inApp: true, email: true).create(on: app.db)
            }
            // Dana's public run, which anyone signed in may open and answer.
            let start = LocalTime.parts(of: app.clock.now.addingTimeInterval(-7200), zone: "UTC")
            let made = try await adult.post(
                "/workouts/new",
                [("sport", "running"), ("day", start.day), ("time", start.time), ("minutes", "30"), ("visibility", "public")],
                csrfFrom: "/workouts/new")
            let workout = try #require(made.location)
            let subject = "workout:" + workout.replacingOccurrences(of: "/workouts/", with: "")
            #expect(try await kid.post("/comments", [("on", subject), ("body", "Nice run")], csrfFrom: workout).status == .seeOther)
            #expect(try await kid.post("/gifts/new", [("for", subject), ("sticker", "flame")], csrfFrom: workout).status == .seeOther)
            let notes = try await adult.get("/notifications")
            #expect(notes.contains("Someone commented on") && notes.contains("Someone sent you"))
            #expect(!notes.contains("Kim Young"))
            let mails = try await OutboxMessage.query(on: app.db).all()
            #expect(!mails.isEmpty && mails.allSatisfy { !$0.body.contains("Kim Young") && !$0.subject.contains("Kim Young") })
            #expect(try await Notification.query(on: app.db).filter(\.$actor.$id != nil).count() == 0, "no hidden actor is stored")
        }
    }
}

/// Issue 41, scenario 5: limits are counted and written in one transaction, so a burst of
/// parallel requests gets exactly the limit, on SQLite and PostgreSQL alike.
@Suite struct ParallelLimitTests {
    @Test func giftsAndCommentsKeepTheirLimitsUnderParallelRequests() async throws {
        try await withApp { app in
            let owner = app.browser(), giver = app.browser()
            try await owner.signUp("olga")
            try await giver.signUp("gus")
            let start = LocalTime.parts(of: app.clock.now.addingTimeInterval(-7200), zone: "UTC")
            let workout = try #require(
                try await owner.post(
                    "/workouts/new",
                    [("sport", "running"), ("day", start.day), ("time", start.time), ("minutes", "30"), ("visibility", "public")],
                    csrfFrom: "/workouts/new"
                ).location)
            let subject = "workout:" + workout.replacingOccurrences(of: "/workouts/", with: "")
            // Many tabs of one signed-in person, posting at once.
            func tabs(_ count: Int) -> [Browser] {
                (0..<count).map { _ in
                    let tab = app.browser()
                    for (name, value) in giver.cookies { tab.setCookie(name, value) }
                    return tab
                }
            }
            // The form's token read once, as every tab of one session has the same one.
            let token = try #require(try await giver.get(workout).csrf)
            func burst(_ count: Int, _ path: String, _ fields: [(String, String)]) async throws -> [HTTPStatus] {
                try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                    for tab in tabs(count) { group.addTask { try await tab.post(path, [("csrf", token)] + fields, csrfFrom: nil).status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            // A few more than the limit at once (SQLite serves a handful of writers at a time; more would
            // only measure the machine).
            let gifts = try await burst(Gift.perDay + 2, "/gifts/new", [("for", subject), ("sticker", "flame")])
            #expect(gifts.filter { $0 == .seeOther }.count == Gift.perDay && gifts.filter { $0 == .unprocessableEntity }.count == 2)
            #expect(try await Gift.query(on: app.db).count() == Gift.perDay)
            // Three short of the hour's comments, then six at once: three more get in.
            let gusID = try #require(try await User.query(on: app.db).filter(\.$username == "gus").first()?.id)
            let olgaID = try #require(try await User.query(on: app.db).filter(\.$username == "olga").first()?.id)
            for _ in 0..<(FeedComment.perHour - 3) {
                let earlier = FeedComment()
                earlier.createdAt = app.clock.now.addingTimeInterval(-600)
                earlier.subject = subject
                earlier.$author.id = gusID
                earlier.$owner.id = olgaID
                earlier.body = "Earlier"
                try await earlier.create(on: app.db)
            }
            let comments = try await burst(6, "/comments", [("on", subject), ("body", "Go!")])
            #expect(comments.filter { $0 == .seeOther }.count == 3 && comments.filter { $0 == .tooManyRequests }.count == 3)
            #expect(try await FeedComment.query(on: app.db).count() == FeedComment.perHour)
        }
    }
}

/// Issue 41, scenario 9: for everyone but the owner, a workout whose track leaves a privacy zone
/// is only its visible part: no number, chart, file or list tells the time or distance inside.
@Suite struct ZoneTrimmedNumbersTests {
    @Test func othersSeeOnlyTheVisiblePartOfARunFromHome() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser()
            try await ana.signUp("ana", name: "Ana Home")
            try await ben.signUp("ben", name: "Ben Friend")
            try await ana.befriend(ben, "ben", me: "ana")
            // A run from home, east along the street, with a zone round home added afterwards.
            let start = app.clock.now.addingTimeInterval(-7200).rounded
            let run = try await ana.multipart(
                "/workouts/import", fields: [("visibility", "followers")],
                file: ("files", "run.gpx", "application/gpx+xml", syntheticGPX(start: start, seconds: 1800, heartRate: 150)),
                csrfFrom: "/workouts/import")
            #expect(run.contains("1 file imported."))
            let workout = try #require(try await Workout.query(on: app.db).first())
            let path = "/workouts/\(try workout.requireID().uuidString.lowercased())"
            #expect(workout.sharedDuration == nil && workout.sharedStartMS == workout.startMS, "nothing is hidden yet")
            let whole = try #require(workout.distance)
            #expect(
                try await ana.post(
                    "/settings/privacy-zones", [("name", "Home"), ("lat", "55.6761"), ("lon", "12.5683"), ("radius", "500")],
                    csrfFrom: "/settings/privacy-zones"
                ).status == .seeOther)
            app.clock.advance(by: 2)
            try await app.app.jobs.runDue(app.app)
            let shared = try #require(try await Workout.find(workout.id, on: app.db))
            let sharedDistance = try #require(shared.sharedDistance), sharedStart = try #require(shared.sharedStartMS)
            #expect(sharedDistance > 0 && sharedDistance < whole - 300, "\(sharedDistance) of \(whole)")
            // The track leaves the hidden circle (500 m and more round home) at 3 m a second: over 100 s in.
            #expect(sharedStart >= workout.startMS + 100_000)
            func km(_ metres: Double) -> String { String(format: "%.2f km", metres / 1000) }

            // The page: the visible part's distance and time, and why.
            let page = try await ben.get(path)
            #expect(page.contains(km(sharedDistance)) && !page.contains(km(whole)), "\(km(sharedDistance)) not \(km(whole))")
            #expect(page.contains("Part of this workout near a private place is hidden"))
            #expect(page.contains(Format.duration(try #require(shared.sharedDuration))))
            let own = try await ana.get(path)
            #expect(own.contains(km(whole)) && !own.contains("Part of this workout near a private place is hidden"))
            // The file (Ben coaches Ana now: only coaches download another's track): no point, and
            // no heart rate, from inside; it starts where the track comes out.
            #expect(try await ben.get(path + ".gpx").status == .notFound, "a friend takes no file")
            try await ana.getsCoached(by: ben)
            let gpx = try await ben.get(path + ".gpx")
            let times = gpx.body.components(separatedBy: "<time>").dropFirst().compactMap { $0.components(separatedBy: "</time>").first }
            let iso = ISO8601DateFormatter()
            let first = try #require(times.first.flatMap { iso.date(from: $0) })
            #expect(Int64(first.timeIntervalSince1970 * 1000) == sharedStart)
            let longitudes = gpx.body.components(separatedBy: #"lon=""#).dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
            #expect(!longitudes.isEmpty && longitudes.allSatisfy { $0 > 12.5683 + 500 / 62_700 })
            // The feed and the leaderboard: the visible part's distance.
            let feed = try await ben.get("/feed")
            #expect(feed.contains(km(sharedDistance)) && !feed.contains(km(whole)))
            // Nor does the feed's order or its cursor carry the real start.
            #expect(!feed.body.contains(String(workout.startMS)))
            let board = try await ben.get("/leaderboard?scope=friends&period=month&by=distance")
            #expect(board.contains(km(sharedDistance)) && !board.contains(km(whole)))
            #expect(try await ana.get("/leaderboard?scope=friends&period=month&by=distance").contains(km(whole)), "her own count whole")
            // Removing the zone shows the whole run again.
            let zone = try #require(try await SavedPrivacyZone.query(on: app.db).first()?.requireID().uuidString.lowercased())
            #expect(try await ana.post("/settings/privacy-zones/\(zone)/delete", [], csrfFrom: "/settings/privacy-zones").status == .seeOther)
            app.clock.advance(by: 2)
            try await app.app.jobs.runDue(app.app)
            #expect(try await Workout.find(workout.id, on: app.db).map { $0.sharedDuration == nil && $0.sharedStartMS == $0.startMS } == true)
            #expect(try await ben.get(path).contains(km(whole)))
        }
    }
}

extension ZoneTrimmedNumbersTests {
    /// A phone that syncs after the workout was finished: the part others see is worked out again.
    @Test func positionsThatArriveAfterTheWorkoutAreTrimmedToo() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            #expect(
                try await ana.post(
                    "/settings/privacy-zones", [("name", "Home"), ("lat", "55.6761"), ("lon", "12.5683"), ("radius", "500")],
                    csrfFrom: "/settings/privacy-zones"
                ).status == .seeOther)
            let token = try await ana.deviceToken(allDay: false)
            let start = app.clock.milliseconds - 7_200_000, end = start + 1_800_000
            let made = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"external_id": "late", "sport": "running", "start": \#(start), "end": \#(end)}"#)
            #expect(made.status == .created)
            #expect(try await Workout.query(on: app.db).first()?.sharedDuration == nil)
            let points = (0..<180).map { #"{"t": \#(start + Int64($0) * 10_000), "lat": 55.6761, "lon": \#(12.5683 + Double($0) * 0.0005)}"# }
            let sent = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"locations": [\#(points.joined(separator: ","))]}"#)
            #expect((sent.json["stored"] as? [String: Int])?["locations"] == 180)
            try await app.app.jobs.runDue(app.app)
            let workout = try #require(try await Workout.query(on: app.db).first())
            #expect(workout.sharedDuration != nil && (workout.sharedStartMS ?? 0) > workout.startMS)
        }
    }
}

/// Issue 41, decided: children on public lists, and teams and games for an age group.
@Suite struct ChildrenOnListsTests {
    @Test func aChildOnAPublicListIsAPlayerUnder16ToStrangers() async throws {
        try await withApp { app in
            let coach = app.browser(), kid = app.browser(), stranger = app.browser()
            try await coach.signUp("carl", name: "Carl Coach")
            try await kid.signUp("kim", name: "Kim Young", birthDate: "2012-03-01")
            try await stranger.signUp("sam", name: "Sam Stranger")
            // A public team anyone joins at once: the kid and a stranger are both members.
            let team = try await coach.createTeam("Open Futsal", privacy: "public")
            for browser in [kid, stranger] {
                #expect(try await browser.post("/teams/\(team)/join", [("message", "")], csrfFrom: "/teams/\(team)").status == .seeOther)
            }
            let seen = try await stranger.get("/teams/\(team)")
            #expect(seen.contains("A player under 16") && !seen.contains("Kim Young") && !seen.contains("@kim"))
            #expect(try await coach.get("/teams/\(team)").contains("Kim Young"), "the team's manager sees the name")
            #expect(try await kid.get("/teams/\(team)").main.contains("Kim Young"), "she sees herself")
            // A public pick-up game: the organiser sees her name, other players do not.
            let game = try await coach.createPickup()
            for browser in [kid, stranger] { #expect(try await browser.post("\(game)/join", [], csrfFrom: game).status == .seeOther) }
            let list = try await stranger.get(game)
            #expect(list.contains("A player under 16") && !list.contains("Kim Young"))
            #expect(try await coach.get(game).contains("Kim Young"))
            // A public challenge's scoreboard.
            let url = try #require(try await coach.sendChallenge(to: [], caption: "Touch the bar", extra: [("public", "on")]).location)
            #expect(try await kid.reply(to: url, fields: [("location", "none")]).status == .seeOther)
            let reply = try #require(try await ChallengeResponse.query(on: app.db).first()?.requireID().uuidString.lowercased())
            #expect(try await coach.post("\(url)/responses/\(reply)/accept", [("stars", "5")], csrfFrom: url).status == .seeOther)
            let board = try await stranger.get("/challenges/scoreboard?scope=public&period=all")
            #expect(board.contains("A player under 16") && board.contains("Carl Coach") && !board.contains("Kim Young"))
            let page = try await stranger.get(url)
            #expect(page.contains("A player under 16") && !page.contains("Kim Young"))
        }
    }

    @Test func aTeamOrGameForAnAgeGroupRefusesOthersAtEveryDoor() async throws {
        try await withApp { app in
            let adult = app.browser(), kid = app.browser(), other = app.browser()
            try await adult.signUp("ada", name: "Ada Adult")
            try await kid.signUp("kim", name: "Kim Young", birthDate: "2011-06-01")
            try await other.signUp("oli", name: "Oli Older")
            try await kid.befriend(adult, "ada", me: "kim")
            let team = try await adult.createTeam("Night League", privacy: "protected")
            try await Team.query(on: app.db).filter(\.$slug == team).set(\.$ageGroup, to: AgeGroup.adult.rawValue).update()
            let reason = "Night League is for the age group 18+, so it cannot take you."
            // A join request.
            let asked = try await kid.post("/teams/\(team)/join", [("message", "Please")], csrfFrom: "/teams/\(team)")
            #expect(asked.status == .forbidden && asked.contains(reason))
            #expect(try await JoinRequest.query(on: app.db).count() == 0)
            // A direct invitation.
            let invited = try await adult.post("/teams/\(team)/invites", [("username", "kim")], csrfFrom: "/teams/\(team)")
            #expect(invited.status == .unprocessableEntity && invited.contains(reason))
            #expect(try await TeamInvite.query(on: app.db).count() == 0)
            // An invitation link.
            #expect(try await adult.post("/teams/\(team)/invites", [("kind", "link")], csrfFrom: "/teams/\(team)").status == .seeOther)
            let link = try #require(try await adult.get("/teams/\(team)").firstMatch(#"(/join/[A-Za-z0-9_-]{20,})"#))
            let joined = try await kid.post(link, [], csrfFrom: link)
            #expect(joined.status == .forbidden && joined.contains(reason))
            #expect(try await Membership.query(on: app.db).count() == 1)
            // An adult's request shows their age group to the manager.
            #expect(try await other.post("/teams/\(team)/join", [("message", "")], csrfFrom: "/teams/\(team)").status == .seeOther)
            #expect(try await adult.get("/teams/\(team)").contains("age 35+"), "Oli is 36")
            // A pick-up game for adults.
            let game = try await adult.createPickup(age: "18+")
            let played = try await kid.post("\(game)/join", [], csrfFrom: game)
            #expect(played.status == .forbidden && played.contains("This game is for the age group 18+."))
        }
    }

    @Test func aChildsRouteStoredAsPublicReachesFriendsOnly() async throws {
        try await withApp { app in
            let kid = app.browser(), stranger = app.browser()
            try await kid.signUp("kim", name: "Kim Young", birthDate: "2012-03-01")
            try await stranger.signUp("sam")
            let token = try await kid.deviceToken(allDay: false)
            let run = try await kid.uploadFile(
                syntheticGPX(start: app.clock.now.addingTimeInterval(-7200).rounded, seconds: 600), filename: "run.gpx", token: token)
            let id = try #require(run.workout["id"] as? String)
            let route = try #require(try await kid.post("/workouts/\(id)/route", [], csrfFrom: "/workouts/\(id)").location)
            try await Route.query(on: app.db).set(\.$visibility, to: .public).update()
            let name = try #require(try await Route.query(on: app.db).first()?.name)
            #expect(try await app.browser().get(route).status == .notFound)
            #expect(try await stranger.get(route).status == .notFound)
            #expect(try await kid.get(route).status == .ok)
            #expect(!(try await app.browser().get("/routes?lat=55.6761&lon=12.57&radius_km=10").contains(name)))
        }
    }

    @Test func tileBucketsAreKeptPerAddressAndPerIPv6Network() {
        #expect(TileLimiter.client("192.0.2.7") == "192.0.2.7")
        #expect(TileLimiter.client("2001:db8:1:2::1") == TileLimiter.client("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        #expect(TileLimiter.client("2001:db8:1:2::1") != TileLimiter.client("2001:db8:1:3::1"))
        #expect(TileLimiter.client(nil) == "unknown")
    }

    @Test func peopleYouMightKnowNeverShowAChildAnAdultStranger() async throws {
        try await withApp { app in
            let stranger = app.browser(), kid = app.browser(), adult = app.browser(), coach = app.browser()
            try await stranger.signUp("sam", name: "Sam Stranger")
            try await kid.signUp("kim", name: "Kim Young", birthDate: "2012-03-01")
            try await adult.signUp("ada", name: "Ada Adult")
            try await coach.signUp("carl", name: "Carl Coach")
            #expect(try await adult.get("/").contains("Sam Stranger"), "an adult is shown new public profiles")
            #expect(!(try await kid.get("/").contains("Sam Stranger")))
            // Her own (protected) team's coach may be suggested to her.
            let squad = try await coach.createTeam("Youth Squad")
            #expect(try await kid.post("/teams/\(squad)/join", [("message", "")], csrfFrom: "/teams/\(squad)").status == .seeOther)
            let request = try #require(try await JoinRequest.query(on: app.db).first()?.requireID().uuidString.lowercased())
            #expect(try await coach.post("/teams/\(squad)/requests/\(request)/approve", [], csrfFrom: "/teams/\(squad)").status == .seeOther)
            let home = try await kid.get("/")
            #expect(home.contains("Carl Coach") && !home.contains("Sam Stranger"))
        }
    }
}
