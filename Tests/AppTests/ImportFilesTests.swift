@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// Real files from other devices and apps, and GPS jumps from any source, read the way the files'
/// own decoders read them (the figures are fitdecode's and gpxpy's: `Tests/Fixtures/README.md`).
@Suite("Importing real files: legs, chains, pieces, time order, GPS jumps and splits")
struct ImportFilesTests {
    /// A GPX walk along a parallel in Copenhagen, one point a second at `speed` m/s; `jumps` moves
    /// points (by index) that many metres north.
    static func walkGPX(start: Date, seconds: Int, speed: Double = 1.4, sport: String = "walking", jumps: [Int: Double] = [:]) -> [UInt8] {
        let formatter = ISO8601DateFormatter()
        let latitude = 55.6761
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        var text = #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>\#(sport)</type><trkseg>"#
        for second in 0...seconds {
            let north = (jumps[second] ?? 0) / metresPerDegree
            let east = Double(second) * speed / (metresPerDegree * cos(latitude * Double.pi / 180))
            text +=
                #"<trkpt lat="\#(latitude + north)" lon="\#(12.5683 + east)"><time>\#(formatter.string(from: start.addingTimeInterval(Double(second))))</time></trkpt>"#
        }
        return Array((text + "</trkseg></trk></gpx>").utf8)
    }

    /// A swim, a bike and a run with their transitions (and three chained files of stored heart
    /// rate after them): one workout, its five legs on its page in a table, the totals their sum.
    @Test func aTriathlonIsOneWorkoutWithItsLegs() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let race = try await ana.uploadFile(try fixtureFile("fit/sample_mulitple_header.fit"), filename: "race.fit", token: token)
            #expect(race.status == .created)
            #expect(try await rowCount("workouts", app.db) == 1)
            let w = race.workout
            #expect(w["sport"] as? String == "other")
            #expect(w["start"] as? String == "2018-05-27T07:33:01Z" && w["end"] as? String == "2018-05-27T10:11:12Z")
            #expect(abs((w["distance_m"] as? Double ?? 0) - 52533.68) < 0.01)
            #expect(abs((w["duration_s"] as? Double ?? 0) - 9491.348) < 0.001, "the legs' times added up")
            #expect(w["calories_kcal"] as? Double == 1885)
            let id = try #require(w["id"] as? String)

            let page = try await ana.get("/workouts/\(id.lowercased())")
            #expect(page.status == .ok)
            let table = try #require(page.firstMatch(#"(?s)(<table class="standings legs">.*?</table>)"#))
            #expect(table.contains(#"<thead><tr><th scope="col">Sport</th><th scope="col">"#) && table.contains(#"<th scope="col">Distance</th></tr></thead>"#))
            let rows = [
                ("Swimming", "33:08", "1.64 km"), ("Transition", "2:50", "0.14 km"), ("Cycling", "1:13:42", "40.91 km"),
                ("Transition", "1:01", "0.03 km"), ("Running", "47:31", "9.81 km"),
            ]
            let body = rows.map { #"<tr><th scope="row">\#($0.0)</th><td>\#($0.1)</td><td>\#($0.2)</td></tr>"# }.joined()
            #expect(table.contains("<tbody>\(body)</tbody>"))
            #expect(table.contains(#"<tfoot><tr><th scope="row">Total</th><td>2:38:11</td><td>52.53 km</td></tr></tfoot>"#))
            #expect(page.contains(#"<h2 id="legs-h">Legs</h2>"#))

            // In Portuguese.
            try await User.query(on: app.db).filter(\.$username == "ana").set(\.$languageCode, to: "pt-PT").update()
            app.wroteBehindTheAppsBack()
            let portuguese = try await ana.get("/workouts/\(id.lowercased())")
            #expect(portuguese.contains(#"<h2 id="legs-h">Etapas</h2>"#))
            #expect(portuguese.contains(#"<th scope="row">Transição</th><td>2:50</td><td>0,14 km</td>"#))
        }
    }

    /// A Fenix 2 multisport day whose odometer starts again in each of its seven sessions: the
    /// workout's distance is the sessions' sum (69,831.36 m), not the last session's (28,927.39 m).
    @Test func aMultisportWorkoutsDistanceIsTheSumOfItsLegs() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let day = try await ana.uploadFile(try fixtureFile("fit/activity-large-fenxi2-multisport.fit"), filename: "day.fit", token: token)
            #expect(day.status == .created)
            #expect(abs((day.workout["distance_m"] as? Double ?? 0) - 69831.36) < 0.01)
            #expect(abs((day.workout["duration_s"] as? Double ?? 0) - 24617.46) < 0.001, "the legs' times added up")
            #expect(day.workout["calories_kcal"] as? Double == 4079)
            #expect((day.workout["notes"] as? [String] ?? []).contains("2 points whose times go back (out of time order) were left out."))
            let workout = try #require(try await Workout.query(on: app.db).first())
            #expect(workout.legList.map(\.kind) == ["other", "transition", "running", "transition", "running", "transition", "cycling"])
            #expect(abs(workout.legList.compactMap(\.distance).reduce(0, +) - 69831.36) < 0.01)
            // fitdecode: of the 24,231 records in time order, 24,227 have a position.
            #expect(try await rowCount("location_samples", app.db) == 24227)
        }
    }

    /// An activity followed by a settings file in one FIT file is the activity.
    @Test func aChainedFITFileIsImported() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let run = try await ana.uploadFile(try fixtureFile("fit/activity-settings.fit"), filename: "activity-settings.fit", token: token)
            #expect(run.status == .created, "\(run.errorMessage)")
            #expect(run.workout["sport"] as? String == "running")
            #expect(run.workout["start"] as? String == "2012-04-09T21:22:26Z" && run.workout["end"] as? String == "2012-04-09T21:22:39Z")
            #expect(abs((run.workout["distance_m"] as? Double ?? 0) - 5.73) < 0.01)
            #expect(try await rowCount("location_samples", app.db) == 14)
            // A settings file alone is still refused for what it is.
            let settings = try await ana.uploadFile(try fixtureFile("fit/Settings.fit"), filename: "Settings.fit", token: token)
            #expect(settings.status == .unprocessableEntity && settings.errorMessage.contains("settings file"))
        }
    }

    /// An untimed GPX of tracks that lie apart is a route of 4.58 km (gpxpy's 2D length of the
    /// tracks), not 13.68 km with straight lines across the gaps; its map and file keep the pieces.
    @Test func aRouteOfTracksThatLieApartCountsNoDistanceBetweenThem() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let upload = try await ana.uploadFile(try fixtureFile("gpx/cerknicko-without-times.gpx"), filename: "lake.gpx", token: token)
            #expect(upload.status == .created)
            let json = try #require(upload.json["route"] as? [String: Any])
            let metres = try #require(json["distance_m"] as? Double)
            #expect(abs(metres - 4580.1) / 4580.1 < 0.005)
            let id = try #require(json["id"] as? String).lowercased()
            let page = try await ana.get("/routes/\(id)")
            #expect(page.status == .ok && page.contains("4.58 km") && !page.contains("13.68 km"))
            let gpx = try await ana.get("/routes/\(id).gpx")
            #expect(gpx.body.components(separatedBy: "<trkseg>").count - 1 == 7, "seven pieces")
            // Read back, the file is the same route.
            guard case .route(let again) = try ActivityFile.read(gpx.bytes) else { Issue.record("the route's GPX is not a route"); return }
            #expect(abs(again.distance - metres) < 0.1)
        }
    }

    /// A real track with one point's time moved back an hour: left out with a note the owner reads,
    /// where it was sorted into place and drew a leg there and back (6,169.9 m instead of 4,580.1 m).
    /// Kept as a route, the workout's tracks stay apart too.
    @Test func aPointWhoseTimeGoesBackIsLeftOutWithANote() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let lake = try await ana.uploadFile(try fixtureFile("gpx/cerknicko-jezero-time-goes-back.gpx"), filename: "lake.gpx", token: token)
            #expect(lake.status == .created)
            let metres = try #require(lake.workout["distance_m"] as? Double)
            #expect(abs(metres - 4580.1) / 4580.1 < 0.01)
            #expect(try await rowCount("location_samples", app.db) == 295)
            let id = try #require(lake.workout["id"] as? String).lowercased()
            let page = try await ana.get("/workouts/\(id)")
            #expect(page.contains("One point whose time goes back (out of time order) was left out."))

            let kept = try await ana.post("/workouts/\(id)/route", [], csrfFrom: "/workouts/\(id)")
            #expect(kept.status == .seeOther)
            let route = try #require(try await Route.query(on: app.db).first())
            #expect(abs(route.distance - metres) < 0.5, "the route is as long as the workout: no line between its tracks")
            #expect(route.shape.pieces.count == 7)
        }
    }

    /// A walk with one fix 175 m off (126 km/h over five seconds): the fix is left out, with a note,
    /// and the top speed is a walker's.
    @Test func aWalksGPSJumpIsLeftOutWithANote() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = app.clock.now.addingTimeInterval(-7200).rounded
            let walk = try await ana.uploadFile(Self.walkGPX(start: start, seconds: 600, jumps: [300: 175]), filename: "walk.gpx", token: token)
            #expect(walk.status == .created)
            let w = walk.workout
            #expect(w["sport"] as? String == "walking")
            #expect(abs((w["distance_m"] as? Double ?? 0) - 840) < 0.5)
            let top = try #require(w["max_speed_mps"] as? Double)
            #expect(abs(top - 1.4) < 0.01, "a walker's 5 km/h, not 126 km/h")
            #expect((w["avg_speed_mps"] as? Double ?? 99) <= top)
            #expect((w["notes"] as? [String] ?? []).contains("One position or speed reading too fast for the sport (a GPS jump) was left out."))
            let id = try #require(w["id"] as? String).lowercased()
            let page = try await ana.get("/workouts/\(id)")
            #expect(page.contains("One position or speed reading too fast for the sport (a GPS jump) was left out."))
            #expect(page.contains("5.0 km/h / 5.0 km/h"), "min and max speed")
            // The streams end at the workout's distance.
            let streams = try await ana.api(.GET, "/api/v1/workouts/\(id)/streams?keys=distance", token: token)
            #expect(abs(((streams.json["distance"] as? [Double])?.last ?? 0) - 840) < 0.5)
        }
    }

    /// A phone that sent two positions in Copenhagen and then two in Madrid, ten seconds apart, and
    /// finished the workout: 2,072.7 km at 69,090 m/s before; now the Madrid fixes are left out.
    @Test func aDevicesJumpFromCopenhagenToMadridIsLeftOut() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let startMS = Int64(app.clock.now.addingTimeInterval(-3600).rounded.timeIntervalSince1970 * 1000)
            let started = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"external_id": "jump-1", "sport": "running", "start": \#(startMS)}"#)
            #expect(started.status == .created)
            let fixes = [(0, 55.6761, 12.5683), (10, 55.6763, 12.5683), (20, 40.4168, -3.7038), (30, 40.4170, -3.7038)]
            let locations = fixes.map { #"{"t": \#(startMS + Int64($0.0) * 1000), "lat": \#($0.1), "lon": \#($0.2)}"# }.joined(separator: ",")
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"locations": [\#(locations)]}"#).status == .created)
            let finished = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"external_id": "jump-1", "end": \#(startMS + 30_000)}"#)
            #expect(finished.status == .ok)
            let w = finished.workout
            let metres = try #require(w["distance_m"] as? Double)
            #expect(abs(metres - 22.24) < 0.01, "Copenhagen's 22 m, not 2,072.7 km")
            if let average = w["avg_speed_mps"] as? Double, let top = w["max_speed_mps"] as? Double { #expect(average <= top) }
            #expect((w["max_speed_mps"] as? Double ?? 0) <= Plausible.topSpeed(.running))
            #expect((w["notes"] as? [String] ?? []).contains("2 positions or speed readings too fast for the sport (GPS jumps) were left out."))
            let id = try #require(w["id"] as? String).lowercased()
            let page = try await ana.get("/workouts/\(id)")
            #expect(page.contains("2 positions or speed readings too fast for the sport (GPS jumps) were left out."))
            #expect(page.contains("0.02 km") && !page.contains("2072"))

            // A workout summarised before the jumps were left out (as it was stored then) is worked
            // out again in the background, once: the migration queues each person with workouts.
            let stored = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
            stored.distance = 2_072_696
            stored.maxSpeed = 207_265
            stored.summaryVersion = nil
            try await stored.save(on: app.db)
            let userID = stored.$user.id
            try await ResummariseJob.enqueue(for: userID, on: app.db)
            try await app.app.jobs.runDue(app.app)
            let again = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
            #expect(abs((again.distance ?? 0) - 22.24) < 0.01 && (again.maxSpeed ?? .infinity) <= Plausible.topSpeed(.running))
            #expect(again.summaryVersion == Workout.summaryRules)
            // Queued again (a second process, a retry): nothing left to do, nothing changes.
            try await ResummariseJob.refresh(userID, on: app.db)
            #expect(try await Workout.find(UUID(uuidString: id), on: app.db)?.distance == again.distance)
        }
    }

    /// A 2.51 km run has two whole kilometre splits and a last one of 507 m.
    @Test func theLastPartialSplitIsShownWithItsLength() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = app.clock.now.addingTimeInterval(-7200).rounded
            // syntheticGPX moves 3.13498 m a second: 800 s make 2,507.99 m (haversine); the whole
            // kilometres fall at 319 s and 638 s, so the last split is 162 s for 507.99 m (5:19 /km).
            let run = try await ana.uploadFile(syntheticGPX(start: start, seconds: 800), filename: "run.gpx", token: token)
            #expect(run.status == .created)
            let id = try #require(run.workout["id"] as? String).lowercased()
            let page = try await ana.get("/workouts/\(id)")
            let table = try #require(page.firstMatch(#"(?s)(<table class="standings splits">.*?</table>)"#))
            #expect(table.contains("<tr><td>1</td><td>5:19</td><td>5:19 /km</td><td>–</td></tr><tr><td>2</td><td>5:19</td>"))
            #expect(table.contains("<tr><td>507 m</td><td>2:42</td><td>5:19 /km</td><td>–</td></tr></tbody>"))
            #expect(!table.contains("<tr><td>3</td>"))
        }
    }
}
