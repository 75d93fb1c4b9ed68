@testable import App
import FieldhouseKit
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@Suite("Workout history and pages")
struct WorkoutPageTests {
    /// Ana with the fenix2 run (FIT) and a short synthetic ride; returns the run's id.
    static func anaWithWorkouts(_ app: TestApp, birthDate: String = "1990-05-17") async throws -> (Browser, String) {
        let ana = app.browser()
        try await ana.signUp("ana", birthDate: birthDate)
        let token = try await ana.deviceToken()
        let run = try await ana.uploadFile(try fixtureFile("fit/activity-small-fenix2-run.fit"), filename: "run.fit", token: token)
        let ride = try await ana.uploadFile(
            syntheticGPX(start: Date(timeIntervalSince1970: 1_700_000_000), seconds: 900, sport: "cycling", heartRate: 130),
            filename: "ride.gpx", token: token)
        #expect(run.status == .created && ride.status == .created)
        return (ana, try #require((run.workout["id"] as? String)?.lowercased()))
    }

    @Test func theOwnerSeesNumbersChartsMapAndSplits() async throws {
        try await withApp { app in
            let (ana, id) = try await Self.anaWithWorkouts(app)
            let page = try await ana.get("/workouts/\(id)")
            #expect(page.status == .ok)
            #expect(page.contains("9.01 km"))
            #expect(page.contains("Heart rate min / avg / max") && page.contains("/ 154 / 178 bpm"))
            #expect(page.contains(#"aria-label="Heart rate over time"#) && page.contains("Zone 3"))
            #expect(page.contains("Time in each heart-rate zone"))
            #expect(page.contains(#"aria-label="Elevation profile""#))
            #expect(page.contains("Map of the route from S (start) to F (finish)") && page.contains("openstreetmap.org/?minlat="))
            #expect(page.contains("Splits per km"))
            #expect(page.contains("<tr><td>8</td>") && !page.contains("<tr><td>10</td>"), "whole kilometres of a 9 km run")
            #expect(page.contains("/workouts/\(id).gpx"))

            let list = try await ana.get("/workouts?group=month")
            #expect(list.contains("2 workouts"))
            #expect(list.contains("Aug 2015") && list.contains("Nov 2023"))
            let rides = try await ana.get("/workouts?sport=cycling")
            #expect(rides.contains("1 workout") && !rides.contains("9.01 km"))
            let bad = try await ana.get("/workouts?from=2020-02-30")
            #expect(bad.status == .unprocessableEntity)
        }
    }

    /// A workout's first view draws from the series stored at import; once dropped, the next view
    /// draws from the samples and stores it again. Both must draw exactly the same charts, map and
    /// splits, and writing samples into the workout's window or saving it drops the stored series.
    @Test func theStoredSeriesDrawsWhatTheSamplesDraw() async throws {
        try await withApp { app in
            let file = try fixtureFile("gpx/fenix2-run-with-hr.gpx")
            func person(_ name: String) async throws -> (Browser, String, UUID) {
                let browser = app.browser()
                try await browser.signUp(name)
                let token = try await browser.deviceToken()
                let upload = try await browser.uploadFile(file, filename: "run.gpx", token: token)
                #expect(upload.status == .created)
                let id = try #require((upload.workout["id"] as? String).flatMap(UUID.init(uuidString:)))
                return (browser, token, id)
            }
            let sql = app.db.sql
            func series(_ id: UUID) async throws -> Data? {
                try await sql.raw("SELECT series FROM workouts WHERE id = \(bind: id)").first()?.decode(column: "series", as: Data?.self)
            }
            /// The drawn parts of a page: every SVG and the splits table.
            func drawings(_ body: String) -> [Substring] {
                var parts: [Substring] = []
                var rest = body[...]
                while let open = rest.range(of: "<svg"), let close = rest[open.upperBound...].range(of: "</svg>") {
                    parts.append(rest[open.lowerBound..<close.upperBound])
                    rest = rest[close.upperBound...]
                }
                if let splits = body.range(of: "Splits per km"), let end = body[splits.upperBound...].range(of: "</table>") {
                    parts.append(body[splits.lowerBound..<end.upperBound])
                }
                return parts
            }

            let (ana, anaToken, anaRun) = try await person("ana")
            #expect(try await series(anaRun) != nil, "stored at import")
            let fromImport = try await ana.get("/workouts/\(SiteURL.id(anaRun))")

            let (ben, _, benRun) = try await person("ben")
            try await sql.raw("UPDATE workouts SET series = NULL WHERE id = \(bind: benRun)").run()
            let fromSamples = try await ben.get("/workouts/\(SiteURL.id(benRun))")
            #expect(try await series(benRun) != nil, "stored again by the first view")

            let drawn = drawings(fromImport.body)
            #expect(drawn.count >= 4, "heart rate, speed and elevation charts, the map and the splits")
            #expect(fromImport.contains("Splits per km") && drawn.contains { $0.contains("Map of the route") })
            #expect(drawn == drawings(fromSamples.body))

            // A strap's heart rate inside the run's window: the samples changed, so the series goes.
            let workout = try #require(try await Workout.find(anaRun, on: app.db))
            let inside = workout.startMS + 1_500
            let answer = try await ana.api(.POST, "/api/v1/samples", token: anaToken, json: #"{"heart_rate": [{"t": \#(inside), "bpm": 99}]}"#)
            #expect(answer.status == .created || answer.status == .ok)
            if answer.status == .created { #expect(try await series(anaRun) == nil) }
            _ = try await ana.get("/workouts/\(SiteURL.id(anaRun))")
            #expect(try await series(anaRun) != nil)
            // Saving the workout (a new name) drops it too.
            workout.name = "Renamed"
            try await workout.save(on: app.db)
            #expect(try await series(anaRun) == nil)
        }
    }

    @Test func privateForUnder16s() async throws {
        try await withApp { app in
            // Ana is 14: her workouts start private whatever her profile says.
            let (_, id) = try await Self.anaWithWorkouts(app, birthDate: "2012-03-01")
            let ben = app.browser()
            try await ben.signUp("ben")
            #expect(try await ben.get("/workouts/\(id)").status == .notFound)
            #expect(try await app.browser().get("/workouts/\(id)").status == .notFound)
            #expect(try await ben.get("/workouts/\(id).gpx").status == .notFound)
            #expect(try await ben.get("/workouts/\(id).csv").status == .notFound)
        }
    }

    @Test func followersOnlyWorkoutsAreForAcceptedFollowers() async throws {
        try await withApp { app in
            let (_, id) = try await Self.anaWithWorkouts(app)
            let workout = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
            workout.visibility = .followers
            try await workout.save(on: app.db)
            let ben = app.browser(), cyd = app.browser()
            try await ben.signUp("ben")
            try await cyd.signUp("cyd")
            // Ben follows Ana (her profile is public, so at once); Cyd does not.
            #expect(try await ben.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther)
            #expect(try await ben.get("/workouts/\(id)").status == .ok)
            // A follower sees the map; the track's files are the owner's and her coaches'.
            #expect(try await ben.get("/workouts/\(id).gpx").status == .notFound)
            #expect(try await ben.get("/workouts/\(id).csv").status == .notFound)
            #expect(try await cyd.get("/workouts/\(id)").status == .notFound)
            #expect(try await cyd.get("/workouts/\(id).gpx").status == .notFound)
            #expect(try await app.browser().get("/workouts/\(id)").status == .notFound)
            // Nobody's history, statistics or heart rate shows another person's workouts.
            #expect(!(try await ben.get("/workouts").contains(id)))
            #expect(try await ben.get("/stats?period=month").contains(": 0 workouts"))
        }
    }

    @Test func privacyZonesHideEveryPointInsideFromEveryoneElse() async throws {
        try await withApp { app in
            let (ana, id) = try await Self.anaWithWorkouts(app)
            // The run starts (and ends) at 58.9591828, 5.7288390: Ana draws 500 m around it.
            let bad = try await ana.post(
                "/settings/privacy-zones", [("name", "Home"), ("lat", "99"), ("lon", "5.7"), ("radius", "50")],
                csrfFrom: "/settings/privacy-zones")
            #expect(bad.status == .unprocessableEntity && bad.contains("or enter a latitude from −90 to 90") && bad.contains("from 200 m to 2 km"))
            let added = try await ana.post(
                "/settings/privacy-zones", [("name", "Home"), ("lat", "58.9591828"), ("lon", "5.7288390"), ("radius", "500")],
                csrfFrom: "/settings/privacy-zones")
            #expect(added.status == .seeOther)
            #expect(try await ana.get("/settings/privacy-zones").contains("500 m"))
            let home = PrivacyZone(centre: Coordinate(latitude: 58.9591828, longitude: 5.7288390), radius: 500)

            let workout = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
            workout.visibility = .public
            try await workout.save(on: app.db)
            let ben = app.browser()
            try await ben.signUp("ben")
            let page = try await ben.get("/workouts/\(id)")
            // The numbers are the visible part's: the 9.01 km run from home and back is shorter to Ben.
            #expect(page.status == .ok && !page.contains("9.01 km") && page.contains("parts near private places are hidden"))
            #expect(page.contains("Part of this workout near a private place is hidden"))
            #expect(try await ana.get("/workouts/\(id)").contains("9.01 km"))
            #expect(!page.contains("/edit"))

            func coordinates(_ text: String, _ pattern: String) -> [Coordinate] {
                let regex = try! NSRegularExpression(pattern: pattern)
                return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
                    guard let lat = Range(match.range(at: 1), in: text).flatMap({ Double(text[$0]) }),
                        let lon = Range(match.range(at: 2), in: text).flatMap({ Double(text[$0]) })
                    else { return nil }
                    return Coordinate(latitude: lat, longitude: lon)
                }
            }
            // Only the owner and her coaches download the track; Ben becomes her coach to read the file.
            #expect(try await ben.get("/workouts/\(id).gpx").status == .notFound)
            try await ana.getsCoached(by: ben)
            let gpx = try await ben.get("/workouts/\(id).gpx")
            let shared = coordinates(gpx.body, #"lat="([-0-9.]+)" lon="([-0-9.]+)""#)
            #expect(!shared.isEmpty && shared.allSatisfy { !home.contains($0) }, "no exported point inside the zone")
            // Exactly the points outside the circle actually hidden (moved off home at random) are shared.
            let hidden = try #require(try await SavedPrivacyZone.query(on: app.db).first()).zone
            let everything = coordinates(try await ana.get("/workouts/\(id).gpx").body, #"lat="([-0-9.]+)" lon="([-0-9.]+)""#)
            #expect(shared.count == everything.filter { !hidden.contains($0) }.count && shared.count > 100)
            let csv = try await ben.get("/workouts/\(id).csv")
            let rows = coordinates(csv.body, #"\n[^,]+,([-0-9.]+),([-0-9.]+),"#)
            #expect(rows.count == shared.count && rows.allSatisfy { !home.contains($0) })
            // The owner still has everything, the start included.
            let own = coordinates(try await ana.get("/workouts/\(id).gpx").body, #"lat="([-0-9.]+)" lon="([-0-9.]+)""#)
            #expect(own.count == 2809 && own.contains { home.contains($0) })
            let osm = try #require(page.firstMatch(#"minlat=([-0-9.]+)&amp;minlon=([-0-9.]+)&amp;maxlat=([-0-9.]+)&amp;maxlon=([-0-9.]+)"#))
            #expect(!osm.isEmpty)
        }
    }

    @Test func gpxExportReimportsAsTheSameWorkout() async throws {
        try await withApp { app in
            let (ana, id) = try await Self.anaWithWorkouts(app)
            let gpx = try await ana.get("/workouts/\(id).gpx")
            #expect(gpx.status == .ok)
            #expect(gpx.headers.first(name: .contentType) == "application/gpx+xml")
            #expect(gpx.contains("<gpxtpx:hr>"))
            let csv = try await ana.get("/workouts/\(id).csv")
            #expect(csv.body.hasPrefix("time,latitude,longitude,elevation_m,heart_rate_bpm,cadence\n"))

            let original = try await ana.api(.GET, "/api/v1/workouts/\(id)", token: try await ana.deviceToken(named: "reader")).workout
            let cy = app.browser()
            try await cy.signUp("cyd")
            let again = try await cy.uploadFile(gpx.bytes, filename: "export.gpx", token: try await cy.deviceToken())
            #expect(again.status == .created)
            let copy = again.workout
            for key in ["start", "end", "sport", "avg_hr", "max_hr", "min_hr", "duration_s", "moving_s", "elevation_gain_m"] {
                #expect("\(copy[key] ?? "nil")" == "\(original[key] ?? "nil")", "\(key)")
            }
            // The watch's odometer is not in GPX: the copy measures the same points by great circle.
            let distance = try #require(copy["distance_m"] as? Double)
            #expect(abs(distance - 9007.07) / 9007.07 < 0.02)
        }
    }

    @Test func deletingAWorkoutRemovesItsSamplesAfterConfirmation() async throws {
        try await withApp { app in
            let (ana, id) = try await Self.anaWithWorkouts(app)
            let before = try await rowCount("location_samples", app.db)
            let unconfirmed = try await ana.post("/workouts/\(id)/delete", [], csrfFrom: "/workouts/\(id)")
            #expect(unconfirmed.status == .seeOther)
            #expect(try await rowCount("workouts", app.db) == 2)
            let ben = app.browser()
            try await ben.signUp("ben")
            #expect(try await ben.post("/workouts/\(id)/delete", [("confirm", "yes")], csrfFrom: "/").status == .notFound)
            let done = try await ana.post("/workouts/\(id)/delete", [("confirm", "yes")], csrfFrom: "/workouts/\(id)")
            #expect(done.status == .seeOther)
            #expect(try await rowCount("workouts", app.db) == 1)
            #expect(try await rowCount("location_samples", app.db) == before - 2809)
            #expect(try await ana.get("/workouts/\(id)").status == .notFound)
        }
    }
}
