@testable import App
import Fluent
import Foundation
import Testing
import Vapor

extension Browser {
    /// What the recorder's page does on first use: a device token for this browser, asked for
    /// with the page's session and CSRF token.
    func recorderToken(named name: String = "Recorder · Chromium on Linux") async throws -> String {
        let made = try await post("/record/device", [("name", name)], csrfFrom: "/record")
        #expect(made.status == .created, "no recorder token: \(made.status) \(made.body.prefix(200))")
        #expect(made.headers.first(name: .cacheControl) == "no-store")
        return try #require(made.json["token"] as? String)
    }

    /// Starts a recording ten minutes ago over the device API; its workout id.
    func startRecording(token: String, id external: String = "rec-1", sport: String = "running") async throws -> String {
        let start = app.clock.milliseconds - 600_000
        let made = try await api(
            .POST, "/api/v1/workouts", token: token, json: #"{"external_id": "\#(external)", "sport": "\#(sport)", "start": \#(start)}"#)
        #expect(made.status == .created)
        return try #require((made.json["workout"] as? [String: Any])?["id"] as? String).lowercased()
    }

    func shareLive(_ workout: String, token: String, _ json: String) async throws -> Page {
        try await api(.POST, "/api/v1/workouts/\(workout)/live", token: token, json: json)
    }
}

@Suite("Recording in the browser and watching live")
struct LiveTests {
    /// Points a few seconds apart, `seconds` after the recording's start, as `{"t", "lat", "lon"}`.
    static func locations(_ app: TestApp, _ places: [(Double, Double)], after seconds: Int64) -> String {
        let start = app.clock.milliseconds - 600_000 + seconds * 1000
        return places.enumerated().map { index, place in
            #"{"t": \#(start + Int64(index) * 3000), "lat": \#(place.0), "lon": \#(place.1)}"#
        }.joined(separator: ",")
    }

    @Test func theRecorderGetsADeviceTokenWithThePagesSession() async throws {
        try await withApp { app in
            let visitor = app.browser()
            let away = try await visitor.get("/record")
            #expect(away.status == .seeOther && away.location == "/login?next=%2Frecord")
            let refused = try await visitor.post("/record/device", [("name", "Recorder")], csrfFrom: "/login")
            #expect([401, 403].contains(refused.status.code) && refused.json["token"] == nil)

            let ana = app.browser()
            try await ana.signUp("ana")
            let page = try await ana.get("/record")
            #expect(page.status == .ok)
            // Installable, and the recorder kept offline by a worker that is always asked for afresh.
            let manifestURL = try #require(page.firstMatch(#"<link rel="manifest" href="([^"]+)">"#))
            let manifest = try await visitor.get(manifestURL)
            #expect(manifest.status == .ok && manifest.json["start_url"] as? String == "/record" && manifest.json["display"] as? String == "standalone")
            let worker = try await visitor.get("/sw.js")
            #expect(worker.status == .ok && worker.headers.first(name: .cacheControl) == "no-cache")
            #expect(worker.headers.contentType?.subType == "javascript")
            // A form from another site (no CSRF token) gets no token.
            let forged = try await ana.post("/record/device", [("name", "Recorder")], csrfFrom: nil)
            #expect(forged.status == .forbidden && forged.json["token"] == nil)
            let blank = try await ana.post("/record/device", [("name", "  ")], csrfFrom: "/record")
            #expect(blank.status == .unprocessableEntity)

            // A page holding Ben's recording gets no key for Ana, signed in since on this browser.
            let other = try await ana.post("/record/device", [("name", "Recorder"), ("user", "ben")], csrfFrom: "/record")
            #expect(other.status == .conflict && other.json["token"] == nil)
            let token = try await ana.recorderToken()
            #expect(token.hasPrefix("fhd_"))
            // The token is a device like any other: it records, and Settings → Devices lists and revokes it.
            let workout = try await ana.startRecording(token: token)
            #expect(try await ana.api(.GET, "/api/v1/workouts/\(workout)", token: token).status == .ok)
            let devices = try await ana.get("/settings/devices")
            #expect(devices.contains("Recorder · Chromium on Linux") && !devices.contains(token))
            let device = try #require(try await DeviceToken.query(on: app.db).filter(\.$name == "Recorder · Chromium on Linux").first())
            try await ana.post("/settings/devices/\(try device.requireID().uuidString.lowercased())/revoke", [], csrfFrom: "/settings/devices")
            #expect(try await ana.api(.GET, "/api/v1/workouts/\(workout)", token: token).status == .unauthorized)

            // Discarding a recording removes it and what was recorded during it; asking twice is a 404.
            let fresh = try await ana.recorderToken()
            let api = "/api/v1/samples"
            #expect(
                try await ana.api(.POST, api, token: fresh, json: #"{"locations": [\#(Self.locations(app, [(55.7, 12.6)], after: 5))]}"#).status == .created)
            let typed = try await ana.typedWorkout("running", daysAgo: 2, minutes: 30)
            #expect(try await ana.api(.DELETE, "/api/v1/workouts/\(typed)", token: fresh).status == .conflict, "typed in: deleted on its page")
            try await Workout.query(on: app.db).filter(\.$source != "device").delete()
            #expect(try await ana.api(.DELETE, "/api/v1/workouts/\(workout)", token: fresh).status == .noContent)
            #expect(try await ana.api(.DELETE, "/api/v1/workouts/\(workout)", token: fresh).status == .notFound)
            #expect(try await Workout.query(on: app.db).count() == 0)
            #expect(try await ana.get("/workouts/\(workout)").status == .notFound)

            // Signing out clears what the browser keeps for the recorder offline (a page with her
            // name in it), not its storage, where an unsent recording would wait.
            let out = try await ana.post("/logout", [], csrfFrom: "/record")
            #expect(out.status == .seeOther && out.headers.first(name: "Clear-Site-Data") == #""cache""#)
        }
    }

    @Test func aLiveShareReachesOnlyTheAudienceTheOwnersAgeAllows() async throws {
        try await withApp { app in
            let ana = app.browser(); try await ana.signUp("ana", name: "Ana Runner")
            let ben = app.browser(); try await ben.signUp("ben")
            let cai = app.browser(); try await cai.signUp("cai")
            let olga = app.browser(); try await olga.signUp("olga")
            try await ben.post("/u/ana/follow", [], csrfFrom: "/u/ana")
            try await ana.getsCoached(by: olga)

            let token = try await ana.recorderToken()
            let workout = try await ana.startRecording(token: token)
            let live = "/live/\(workout)"
            #expect(try await ben.get(live).status == .notFound, "not shared yet: nobody but Ana")
            #expect(try await ana.get(live).status == .ok)

            let shared = try await ana.shareLive(workout, token: token, #"{"audience": "followers"}"#)
            #expect(shared.status == .ok && (shared.json["live"] as? [String: Any])?["url"] as? String == live, "\(shared.body)")
            #expect(try await ben.get(live).status == .ok)
            for outsider in [cai, olga, app.browser()] {
                #expect(try await outsider.get(live).status == .notFound)
            }
            // Ben follows Ana and hears of it; Cai does not.
            #expect(try await ben.get("/notifications").contains("Ana Runner is recording a workout live (Running): watch now."))
            #expect(!(try await cai.get("/notifications").contains("recording a workout live")))

            // Shared otherwise: now her coach, no longer her followers. The coach's dashboard lists her as live.
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "coaches"}"#).status == .ok)
            #expect(try await olga.get(live).status == .ok)
            #expect(try await ben.get(live).status == .notFound)
            let dashboard = try await olga.get("/coach")
            #expect(dashboard.contains("Live now") && dashboard.contains(#"<a href="\#(live)">Ana Runner</a>"#))
            #expect(!(try await ben.get("/coach").contains("Live now")))

            // With her team: its members see it, and the team page lists her as live to them.
            let team = try await ana.createTeam("Harbour Runners", privacy: "public")
            #expect(try await ben.post("/teams/\(team)/join", [("message", "")], csrfFrom: "/teams/\(team)").status == .seeOther)
            let teamID = try #require(try await Team.query(on: app.db).filter(\.$slug == team).first()?.requireID())
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "team", "team": "\#(teamID)"}"#).status == .ok)
            #expect(try await ben.get(live).status == .ok)
            #expect(try await ben.get("/teams/\(team)").contains(#"<a href="\#(live)">Ana Runner</a>"#))
            #expect(!(try await cai.get("/teams/\(team)").contains("Live now")), "not a member: the page does not say who is out running")
            #expect(try await olga.get(live).status == .notFound)
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "team", "team": "\#(UUID())"}"#).status == .unprocessableEntity)
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "everyone"}"#).status == .unprocessableEntity)
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "off"}"#).status == .ok)
            #expect(try await olga.get(live).status == .notFound)
            // Shared again: not news a second time.
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "followers"}"#).status == .ok)
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "live_workout").count() == 1)
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "off"}"#).status == .ok)

            // Tia is 13: followers or a team are refused; only friends she picks (mutual followers).
            let tia = app.browser(); try await tia.signUp("tia", birthDate: "2013-02-01")
            let tom = app.browser(); try await tom.signUp("tom", birthDate: "2012-06-01")
            let eve = app.browser(); try await eve.signUp("eve")
            // Friends from their squad (how teenagers find each other is the teams' business, tested there).
            let ids = try await User.query(on: app.db).all().reduce(into: [String: UUID]()) { $0[$1.username] = $1.id }
            let (tiaID, tomID, eveID) = (try #require(ids["tia"]), try #require(ids["tom"]), try #require(ids["eve"]))
            try await Follow(follower: tiaID, followee: tomID, status: .accepted).create(on: app.db)
            try await Follow(follower: tomID, followee: tiaID, status: .accepted).create(on: app.db)
            try await Follow(follower: eveID, followee: tiaID, status: .accepted).create(on: app.db)
            let teenToken = try await tia.recorderToken()
            let teenWorkout = try await tia.startRecording(token: teenToken, id: "teen-1")
            for refused in [#"{"audience": "followers"}"#, #"{"audience": "people", "people": ["eve"]}"#, #"{"audience": "people", "people": []}"#] {
                let answer = try await tia.shareLive(teenWorkout, token: teenToken, refused)
                #expect(answer.status == .unprocessableEntity, "\(refused) answered \(answer.status)")
            }
            #expect(try await tia.shareLive(teenWorkout, token: teenToken, #"{"audience": "people", "people": ["tom"]}"#).status == .ok)
            #expect(try await tom.get("/live/\(teenWorkout)").status == .ok)
            #expect(try await eve.get("/live/\(teenWorkout)").status == .notFound)
            // Someone else's token cannot share her recording.
            #expect(try await ana.shareLive(teenWorkout, token: token, #"{"audience": "coaches"}"#).status == .notFound)

            // Finished, the live page leads to the workout for those who may see it, and is a 404 for the rest.
            let end = app.clock.milliseconds
            #expect(
                try await tia.api(
                    .POST, "/api/v1/workouts", token: teenToken,
                    json: #"{"external_id": "teen-1", "sport": "running", "start": \#(end - 600_000), "end": \#(end)}"#
                ).status == .ok)
            // Under 16, a recorded workout is private by default: the live page is gone for Tom too.
            #expect(try await tom.get("/live/\(teenWorkout)").status == .notFound)
            #expect(try await eve.get("/live/\(teenWorkout)").status == .notFound)
            let own = try await tia.get("/live/\(teenWorkout)")
            #expect(own.status == .seeOther && own.location == "/workouts/\(teenWorkout)", "finished: Tia is led to her workout")
            #expect(try await ana.api(.POST, "/api/v1/workouts/\(workout)/finish", token: token).status == .ok)
            let after = try await ben.get(live)
            #expect(after.status == .seeOther && after.location == "/workouts/\(workout)", "Ana's workout is for her followers: Ben is led to it")
            #expect(try await tia.shareLive(teenWorkout, token: teenToken, #"{"audience": "coaches"}"#).status == .conflict)
        }
    }

    @Test func aCoachSeesPointsArriveButNeverOneInsideAPrivacyZone() async throws {
        try await withApp { app in
            let ana = app.browser(); try await ana.signUp("ana")
            let olga = app.browser(); try await olga.signUp("olga")
            try await ana.getsCoached(by: olga)
            let home = (55.6761, 12.5683)
            #expect(
                try await ana.post(
                    "/settings/privacy-zones", [("name", "Home"), ("lat", "\(home.0)"), ("lon", "\(home.1)"), ("radius", "300")],
                    csrfFrom: "/settings/privacy-zones"
                ).status == .seeOther)
            let zone = try #require(try await SavedPrivacyZone.query(on: app.db).first()).zone

            let token = try await ana.recorderToken()
            let workout = try await ana.startRecording(token: token)
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "coaches"}"#).status == .ok)
            let coach = try await EventStream.open(olga, "/live/\(workout)/events")
            let owner = try await EventStream.open(ana, "/live/\(workout)/events")
            defer {
                coach.close()
                owner.close()
            }
            #expect(coach.status == .ok)
            let first = try #require(try await coach.next())
            #expect(first.name == "state" && first.points.isEmpty)
            _ = try await owner.next()

            // Out of the door (inside the zone), then away along the harbour (outside), with a heart rate.
            let inside = [home, (home.0 + 0.0005, home.1)]
            let outside = [(55.6900, 12.5990), (55.6903, 12.5993), (55.6906, 12.5996)]
            let heart = #"[{"t": \#(app.clock.milliseconds - 300_000), "bpm": 151}]"#
            let batch = #"{"locations": [\#(Self.locations(app, inside + outside, after: 60))], "heart_rate": \#(heart)}"#
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: batch).status == .created)

            let update = try #require(try await coach.nextWithPoints(within: .seconds(2)), "the coach got no point within 2 s")
            #expect(update.name == "update")
            #expect(update.points.count == outside.count, "the coach got \(update.points)")
            for point in update.points {
                #expect(!zone.contains(Coordinate(latitude: point[0], longitude: point[1])), "a point inside Ana's zone reached her coach")
            }
            #expect(update.json["hr"] as? Int == 151)
            #expect((update.json["distance_m"] as? Int ?? 0) > 40)
            let own = try #require(try await owner.nextWithPoints(within: .seconds(2)))
            #expect(own.points.count == inside.count + outside.count, "Ana sees her whole track")

            // The same batch again stores nothing and shows nothing new.
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: batch).status == .ok)
            if let again = try await coach.next(within: .milliseconds(500)) { #expect(again.points.isEmpty) }

            // The page itself (no script) has the visible track only, never the points at home.
            let page = try await olga.get("/live/\(workout)")
            #expect(page.status == .ok && page.contains("55.6906") && !page.contains("55.6761"))

            // Finishing ends every viewer's stream with a link to the workout.
            let end = app.clock.milliseconds
            #expect(try await ana.api(.POST, "/api/v1/workouts/\(workout)/finish", token: token, json: #"{"end": \#(end)}"#).status == .ok)
            // Waits up to 10 s: a loaded machine (the whole suite in parallel) can be slow to send it.
            var last = try await coach.next(within: .seconds(10))
            while let event = last, event.name == "update" { last = try await coach.next(within: .seconds(10)) }
            #expect(last?.name == "end" && last?.json["url"] as? String == "/workouts/\(workout)", "\(String(describing: last))")
            #expect(try await coach.ended())
        }
    }

    @Test func aViewerWhoMayNoLongerWatchIsCutOff() async throws {
        try await withApp { app in
            let ana = app.browser(); try await ana.signUp("ana")
            let ben = app.browser(); try await ben.signUp("ben")
            try await ben.post("/u/ana/follow", [], csrfFrom: "/u/ana")
            let token = try await ana.recorderToken()
            let workout = try await ana.startRecording(token: token)
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "followers"}"#).status == .ok)
            let watching = try await EventStream.open(ben, "/live/\(workout)/events")
            defer { watching.close() }
            #expect(try await watching.next()?.name == "state")
            // Ana stops Ben following her mid-run: his open stream ends at the next check, and
            // nothing she records afterwards reaches him.
            try await Follow.query(on: app.db).delete()
            #expect(try await watching.ended(within: LiveRoom.recheck + .seconds(3)), "Ben's stream outlived his access")
            #expect(try await ben.get("/live/\(workout)").status == .notFound)
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["DATABASE_URL"] != nil, "several processes share live signals through PostgreSQL"))
    func aViewerOnOneProcessSeesSamplesSentToAnother() async throws {
        try await withTwoProcesses { a, b in
            let ana = a.browser(); try await ana.signUp("ana")
            let olga = a.browser(); try await olga.signUp("olga")
            try await ana.getsCoached(by: olga)
            let token = try await ana.recorderToken()
            let workout = try await ana.startRecording(token: token)
            #expect(try await ana.shareLive(workout, token: token, #"{"audience": "coaches"}"#).status == .ok)
            let watching = try await EventStream.open(olga, "/live/\(workout)/events")
            defer { watching.close() }
            #expect(try await watching.next()?.name == "state")
            // The phone's batch lands on the other process.
            let phone = ana.answered(by: b)
            let batch = #"{"locations": [\#(Self.locations(a, [(55.69, 12.599), (55.6903, 12.5993)], after: 30))]}"#
            #expect(try await phone.api(.POST, "/api/v1/samples", token: token, json: batch).status == .created)
            let update = try #require(try await watching.nextWithPoints(within: .seconds(2)), "nothing reached the viewer on the other process")
            #expect(update.points.count == 2)
        }
    }
}
