@testable import App
import FieldhouseKit
import Fluent
import Foundation
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
            #expect(bad.status == .unprocessableEntity && bad.contains("Enter a latitude") && bad.contains("from 200 m to 2 km"))
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
            #expect(page.status == .ok && page.contains("9.01 km") && page.contains("parts near private places are hidden"))
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
            let gpx = try await ben.get("/workouts/\(id).gpx")
            let shared = coordinates(gpx.body, #"lat="([-0-9.]+)" lon="([-0-9.]+)""#)
            #expect(shared.allSatisfy { !home.contains($0) }, "no exported point inside the zone")
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

@Suite("Adding and editing workouts by hand")
struct WorkoutFormTests {
    @Test func aWorkoutTypedInGetsItsNumbersAndIsCheckedFirst() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            #expect(try await ana.saveProfile(["gender": "female", "weight_kg": "60"]).status == .seeOther)
            let form = try await ana.get("/workouts/new")
            #expect(form.status == .ok && form.contains(#"<label for="minutes">"#))

            let bad = try await ana.post(
                "/workouts/new",
                [
                    ("sport", "quidditch"), ("day", "2026-02-30"), ("time", "07:00"),
                    ("minutes", "0"), ("distance", "-1"), ("heart_rate", "400"),
                ], csrfFrom: "/workouts/new")
            #expect(bad.status == .unprocessableEntity)
            for message in ["Choose a sport", "Enter a real date", "from 1 to 1,440", "distance from 0", "heart rate from 25"] {
                #expect(bad.contains(message), "\(message)")
            }
            let future = try await ana.post(
                "/workouts/new", [("sport", "running"), ("day", "2999-01-01"), ("time", "07:00"), ("minutes", "30")], csrfFrom: "/workouts/new")
            #expect(future.status == .unprocessableEntity && future.contains("cannot end in the future"))
            let tooFast = try await ana.post(
                "/workouts/new",
                [
                    ("sport", "running"), ("day", "2026-11-01"), ("time", "07:00"), ("minutes", "50"),
                    ("distance", "85"),
                ], csrfFrom: "/workouts/new")
            #expect(tooFast.status == .unprocessableEntity && tooFast.contains("faster than a whole running session can be"))
            let halfSteps = try await ana.post(
                "/workouts/new",
                [
                    ("sport", "running"), ("day", "2026-11-01"), ("time", "07:00"), ("minutes", "50"),
                    ("steps", "8,5"), ("distance", "1,234.5"),
                ], csrfFrom: "/workouts/new")
            #expect(halfSteps.status == .unprocessableEntity && halfSteps.contains("Enter whole steps") && halfSteps.contains("one decimal point or comma"))
            #expect(try await rowCount("workouts", app.db) == 0)

            let made = try await ana.post(
                "/workouts/new",
                [
                    ("sport", "running"), ("day", "2026-11-01"), ("time", "07:00"), ("minutes", "50"),
                    ("distance", "10,0"), ("heart_rate", "150"), ("notes", "<b>felt good</b>"), ("visibility", "private"),
                ],
                csrfFrom: "/workouts/new")
            #expect(made.status == .seeOther)
            let workout = try #require(try await Workout.query(on: app.db).first())
            #expect(workout.distance == 10_000 && workout.duration == 3000 && workout.avgHeartRate == 150)
            #expect(workout.calorieMethod == "heart_rate", "Keytel: she gave sex, weight and a birth date")
            // Age 36 (born 1990-05-17): (−20.4022 + 0.4472×150 − 0.1263×60 + 0.074×36) / 4.184 = 9.98177 kcal/min × 50 min.
            #expect(abs((workout.calories ?? 0) - 499.09) < 0.05)
            #expect(try await ana.post("/goals", [("period", "week"), ("metric", "distance"), ("target", "40")], csrfFrom: "/goals").status == .seeOther)
            let page = try await ana.get("/workouts/\(try workout.requireID().uuidString.lowercased())")
            #expect(page.contains("10.00 km") && page.contains("5:00 /km") && page.contains("&lt;b&gt;felt good&lt;/b&gt;"))
            #expect(page.contains("Weekly distance goal") && page.contains("25 % of 40.0 km"))

            let same = try await ana.post(
                "/workouts/new", [("sport", "running"), ("day", "2026-11-01"), ("time", "07:30"), ("minutes", "20")], csrfFrom: "/workouts/new")
            #expect(same.status == .unprocessableEntity && same.contains("You already have"))
        }
    }

    @Test func onlyTheOwnerEditsNameSportNotesAndVisibility() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            _ = try await ana.post(
                "/workouts/new", [("sport", "walking"), ("day", "2026-11-01"), ("time", "07:00"), ("minutes", "30"), ("visibility", "private")],
                csrfFrom: "/workouts/new")
            let id = try #require(try await Workout.query(on: app.db).first()?.requireID().uuidString.lowercased())
            let empty = try await ana.post(
                "/workouts/\(id)/edit", [("name", "  "), ("sport", "walking"), ("visibility", "public")], csrfFrom: "/workouts/\(id)/edit")
            #expect(empty.status == .unprocessableEntity && empty.contains("Give the workout a name"))
            let saved = try await ana.post(
                "/workouts/\(id)/edit", [("name", "Dog walk"), ("sport", "hiking"), ("notes", "Rain"), ("visibility", "public")],
                csrfFrom: "/workouts/\(id)/edit")
            #expect(saved.status == .seeOther)
            let ben = app.browser()
            try await ben.signUp("ben")
            let seen = try await ben.get("/workouts/\(id)")
            #expect(seen.status == .ok && seen.contains("Dog walk") && seen.contains("Hiking") && !seen.contains("/edit"))
            #expect(try await ben.get("/workouts/\(id)/edit").status == .notFound)
            #expect(
                try await ben.post("/workouts/\(id)/edit", [("name", "Mine"), ("sport", "running"), ("visibility", "public")], csrfFrom: "/").status
                    == .notFound)
        }
    }
}

@Suite("Statistics")
struct StatsTests {
    @Test func twelvePeriodsWithAveragesMaximaAndTotals() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "UTC")
            let yesterday = formatter.string(from: Date().addingTimeInterval(-86_400))
            let earlier = formatter.string(from: Date().addingTimeInterval(-40 * 86_400))
            for (sport, day, minutes, km) in [("running", yesterday, "30", "6"), ("cycling", earlier, "60", "24")] {
                let made = try await ana.post(
                    "/workouts/new", [("sport", sport), ("day", day), ("time", "07:00"), ("minutes", minutes), ("distance", km)],
                    csrfFrom: "/workouts/new")
                #expect(made.status == .seeOther)
            }
            let months = try await ana.get("/stats?period=month")
            #expect(months.status == .ok)
            #expect(months.contains("Last 12 months: 2 workouts"))
            #expect(months.contains("Training time per month, last 12"))
            // Duration: average 45:00, maximum 1:00:00, total 1:30:00; distance total 30 km, maximum 24 km.
            #expect(months.contains("<th scope=\"row\">Duration</th><td>45:00</td><td>1:00:00</td><td>1:30:00</td>"))
            #expect(months.contains("<th scope=\"row\">Distance</th><td>15.00 km</td><td>24.00 km</td><td>30.00 km</td>"))
            let runs = try await ana.get("/stats?period=month&sport=running")
            #expect(runs.contains("Last 12 months, running: 1 workout"))
            let days = try await ana.get("/stats?period=day")
            #expect(days.contains("Last 12 days: 1 workout"))
            #expect(try await app.browser().get("/stats").status == .seeOther)
        }
    }
}

@Suite("Goals")
struct GoalTests {
    @Test func progressNotificationOnceAndNoChangesWhileRecording() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let bad = try await ana.post("/goals", [("period", "day"), ("metric", "duration"), ("target", "-5")], csrfFrom: "/goals")
            #expect(bad.status == .unprocessableEntity && bad.contains("Enter a target from 1 to 10,080"))
            #expect(try await ana.post("/goals", [("period", "day"), ("metric", "duration"), ("target", "2")], csrfFrom: "/goals").status == .seeOther)
            #expect(try await ana.post("/goals", [("period", "week"), ("metric", "distance"), ("target", "20")], csrfFrom: "/goals").status == .seeOther)

            // Short workouts inside today (UTC, Ana's zone), whatever the time of day the test runs.
            let token = try await ana.deviceToken()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let base = max(now - 300_000, now - now % 86_400_000 + 1000)
            let first = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "walking", "start": \#(base), "end": \#(base + 60_000)}"#)
            #expect(first.status == .created)
            var page = try await ana.get("/goals")
            #expect(page.contains("Daily duration: 2 min") && page.contains("1 min so far: 50 %"))
            #expect(page.contains(#"<progress max="100" value="50">"#))
            #expect(try await rowCount("notifications", app.db) == 0)

            // Another minute reaches it: one notification, and only one however much more follows.
            _ = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "yoga", "start": \#(base + 60_000), "end": \#(base + 120_000)}"#)
            _ = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"sport": "strength", "start": \#(base + 120_000), "end": \#(base + 140_000)}"#)
            page = try await ana.get("/goals")
            #expect(page.contains("2 min so far: 116 %"))
            let notes = try await Notification.query(on: app.db).all()
            #expect(notes.count == 1 && notes.first?.text.contains("daily goal of 2 min") == true)

            // A recording workout freezes the goals.
            _ = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "running", "external_id": "live-1"}"#)
            let frozen = try await ana.post("/goals", [("period", "week"), ("metric", "steps"), ("target", "50000")], csrfFrom: "/goals")
            #expect(frozen.status == .conflict && frozen.contains("still being recorded"))
            let id = try #require(try await Goal.query(on: app.db).first()?.requireID().uuidString.lowercased())
            #expect(try await ana.post("/goals/\(id)/toggle", [], csrfFrom: "/goals").status == .conflict)
            _ = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"external_id": "live-1", "end": \#(Int64(Date().timeIntervalSince1970 * 1000) + 1000)}"#)
            #expect(try await ana.post("/goals/\(id)/toggle", [], csrfFrom: "/goals").status == .seeOther)
            #expect(try await ana.get("/goals").contains("(off)"))

            let ben = app.browser()
            try await ben.signUp("ben")
            #expect(try await ben.post("/goals/\(id)/delete", [], csrfFrom: "/goals").status == .notFound)
        }
    }
}

@Suite("Home page: today")
struct HomeTodayTests {
    @Test func activeMinutesGoalsAndLastWorkouts() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            var home = try await ana.get("/")
            #expect(home.contains("0 of 60 active minutes") && home.contains("Set a goal"))
            _ = try await ana.post("/goals", [("period", "week"), ("metric", "duration"), ("target", "150")], csrfFrom: "/goals")
            let token = try await ana.deviceToken()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let start = max(now - 1_800_000, now - now % 86_400_000 + 1000)
            let minutes = (now - start) / 60_000
            _ = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"sport": "running", "name": "Before school", "start": \#(start), "end": \#(now)}"#)
            home = try await ana.get("/")
            #expect(home.contains("\(minutes) of 60 active minutes"))
            #expect(home.contains("Weekly duration: 150 min"))
            #expect(home.contains("Before school"))
        }
    }
}

@Suite("Demo workouts")
struct DemoWorkoutTests {
    @Test func mayaGetsAHistoryOnce() async throws {
        try await withApp { app in
            _ = try await DemoPeople.seed(app: app.app)
            // Six weeks of history here; `fieldhouse seed` adds a year.
            let added = try await DemoWorkouts.seed(app: app.app, weeks: 6)
            #expect(try await DemoWorkouts.seed(app: app.app, weeks: 6) == 0)
            let workouts = try await Workout.query(on: app.db).sort(\.$startMS).all()
            #expect(workouts.count == added)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(workouts.allSatisfy { ($0.endMS ?? .max) <= now && $0.startMS > now - 43 * 86_400_000 }, "within six weeks, none ahead")
            #expect(workouts.contains { $0.name == "Harbour loop" && abs(($0.distance ?? 0) - 9007.07) < 0.01 && $0.avgHeartRate == 154 })
            let generated = workouts.filter { $0.startMS < now - 8 * 86_400_000 }
            #expect(generated.count >= 6, "about three a week before the last week")
            #expect(Set(generated.map(\.sport)).count >= 3, "varied sports")
            #expect(zip(workouts, workouts.dropFirst()).allSatisfy { ($0.endMS ?? 0) <= $1.startMS }, "no two overlap")
            // Generated tracks start at home and keep the shape's distance give or take its cut.
            for run in generated where run.sport == "running" && run.streams.contains("latlng") {
                #expect((run.distance ?? 0) > 1_000 && (run.distance ?? 0) < 10_000)
                #expect((run.avgHeartRate ?? 0) > 120)
            }
            #expect(try await Goal.query(on: app.db).count() == 2)
            #expect(try await Reminder.query(on: app.db).count() == 2)

            // A week of all-day heart rate, shown on Maya's heart-rate page.
            let maya = app.browser()
            try await maya.logIn("maya", password: DemoPeople.password(app: app.app) ?? "")
            let day = try await maya.get("/heart-rate")
            #expect(day.status == .ok && !day.contains("switched off"))
            #expect(day.contains("Resting heart rate"))
        }
    }
}

@Suite("Continuous heart rate")
struct HeartRatePageTests {
    @Test func bandSummaryRestingAndTheSwitch() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            #expect(try await ana.get("/heart-rate").contains("Continuous heart rate is switched off"))
            #expect(try await ana.saveProfile(["continuous_hr": "on"]).status == .seeOther)

            // Two hours at 1 Hz between 80 and 99 bpm, with ten calm minutes at 52 half an hour ago.
            let token = try await ana.deviceToken()
            let now = Int64(Date().timeIntervalSince1970 * 1000) / 1000 * 1000
            var samples: [String] = []
            for second in 0..<7200 {
                let t = now - 7_200_000 + Int64(second) * 1000
                let calm = t >= now - 1_800_000 && t < now - 1_200_000
                samples.append(#"{"t": \#(t), "bpm": \#(calm ? 52 : 80 + second % 20)}"#)
            }
            #expect(
                try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [\#(samples.joined(separator: ","))]}"#).status == .created)

            let day = try await ana.get("/heart-rate")
            #expect(day.status == .ok)
            #expect(day.contains("Lowest 52 bpm, highest 99 bpm."))
            #expect(day.contains("the band is the lowest to highest"))
            #expect(day.contains("Resting heart rate") && day.contains("<td>52 bpm</td>"))

            let lastHour = try #require(day.firstMatch(#"<a href="([^"]+)">Last hour</a>"#)).replacingOccurrences(of: "&amp;", with: "&")
            let hour = try await ana.get(lastHour)
            #expect(hour.contains("Lowest 52 bpm, highest 99 bpm."))
            #expect(hour.contains("Zoom in") && hour.contains("Zoom out"))
            // The chart can be dragged across: its wrapper names its span and Ana's time zone.
            #expect(hour.contains(#"data-select-range data-url="/heart-rate""#) && hour.contains(#"data-zone="Europe/Copenhagen""#))

            // A month reads the quarter-hour rollup: the same extremes and the same resting rate.
            let month = try #require(day.firstMatch(#"<a href="([^"]+)">30 days</a>"#)).replacingOccurrences(of: "&amp;", with: "&")
            let thirty = try await ana.get(month)
            #expect(thirty.contains("Lowest 52 bpm, highest 99 bpm."))
            #expect(thirty.contains("<td>52 bpm</td>"))
            #expect(try await rowCount("heart_rate_quarters", app.db) >= 8)

            let backwards = try await ana.get("/heart-rate?from=2026-11-02T10:00&to=2026-11-01T10:00")
            #expect(backwards.status == .unprocessableEntity && backwards.contains("The end must be after the start"))
            #expect(try await app.browser().get("/heart-rate").status == .seeOther)
        }
    }
}

@Suite("Reminders")
struct ReminderTests {
    @Test func remindersRepeatInTheCalendarFeedWithTheirAlarm() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let noDays = try await ana.post("/reminders", [("title", "Stretch"), ("time", "07:30"), ("alert", "10")], csrfFrom: "/reminders")
            #expect(noDays.status == .unprocessableEntity && noDays.contains("Choose at least one day"))
            let badTime = try await ana.post("/reminders", [("title", "Stretch"), ("time", "25:00"), ("days[]", "1"), ("alert", "7")], csrfFrom: "/reminders")
            #expect(badTime.status == .unprocessableEntity && badTime.contains("such as 07:30") && badTime.contains("from the list"))
            let added = try await ana.post(
                "/reminders", [("title", "Stretch; then run"), ("time", "07:30"), ("days[]", "1"), ("days[]", "4"), ("alert", "10")],
                csrfFrom: "/reminders")
            #expect(added.status == .seeOther)
            let list = try await ana.get("/reminders")
            #expect(list.contains("07:30, Mon, Thu") && list.contains("alert 10 min before"))

            let feedURL = try #require(list.firstMatch(#"(/calendar/[A-Za-z0-9_-]+\.ics)"#))
            // A team's feed, which teammates may be given, never carries personal reminders.
            let slug = try await ana.createTeam("Ana FC")
            let teamFeed = try await app.browser().get(feedURL + "?team=\(slug)")
            #expect(teamFeed.status == .ok && !teamFeed.contains("Stretch"))
            var feed = try await app.browser().get(feedURL)
            #expect(feed.status == .ok)
            #expect(feed.contains("SUMMARY:Stretch\\; then run"))
            #expect(feed.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\n"))
            #expect(feed.firstMatch(#"DTSTART:(\d{8}T073000)\r\n"#) != nil, "a floating 07:30 start")
            #expect(feed.contains("TRIGGER:-PT10M"))

            let id = try #require(try await Reminder.query(on: app.db).first()?.requireID().uuidString.lowercased())
            let edited = try await ana.post(
                "/reminders/\(id)/edit", [("title", "Stretch"), ("time", "18:00"), ("days[]", "6"), ("alert", "0")],
                csrfFrom: "/reminders/\(id)/edit")
            #expect(edited.status == .seeOther)
            feed = try await app.browser().get(feedURL)
            #expect(feed.contains("BYDAY=SA") && !feed.contains("VALARM"))
            #expect(try await ana.post("/reminders/\(id)/toggle", [], csrfFrom: "/reminders").status == .seeOther)
            #expect(!(try await app.browser().get(feedURL).contains("Stretch")))

            let ben = app.browser()
            try await ben.signUp("ben")
            #expect(try await ben.get("/reminders/\(id)/edit").status == .notFound)
            #expect(try await ben.post("/reminders/\(id)/delete", [], csrfFrom: "/reminders").status == .notFound)
            let confirm = try await ana.get("/reminders/\(id)/delete")
            #expect(confirm.contains("Delete “Stretch”?"))
            #expect(try await ana.post("/reminders/\(id)/delete", [], csrfFrom: "/reminders/\(id)/delete").status == .seeOther)
            #expect(try await rowCount("reminders", app.db) == 0)
        }
    }
}

@Suite("Resetting one's workouts")
struct ResetWorkoutsTests {
    @Test func typedUsernameDeletesWorkoutsSamplesGoalsAndRemindersOnly() async throws {
        try await withApp { app in
            let ana = app.browser(), bob = app.browser()
            try await ana.signUp("ana")
            try await bob.signUp("bob")
            for person in [ana, bob] {
                let token = try await person.deviceToken()
                #expect(try await person.uploadFile(try fixtureFile("fit/activity-small-fenix2-run.fit"), filename: "run.fit", token: token).status == .created)
            }
            #expect(try await ana.post("/goals", [("period", "week"), ("metric", "distance"), ("target", "20")], csrfFrom: "/goals").status == .seeOther)
            #expect(
                try await ana.post("/reminders", [("title", "Stretch"), ("time", "07:30"), ("days[]", "1"), ("alert", "10")], csrfFrom: "/reminders").status
                    == .seeOther)
            #expect(
                try await ana.post(
                    "/settings/privacy-zones", [("name", "Home"), ("lat", "55.68"), ("lon", "12.57"), ("radius", "500")],
                    csrfFrom: "/settings/privacy-zones"
                ).status == .seeOther)
            let samplesBefore = try await rowCount("heart_rate_samples", app.db)

            let page = try await ana.get("/settings/reset-workouts")
            #expect(page.status == .ok)
            #expect(page.contains("1 workout,") && page.contains("1 goal and 1 reminder"))
            // The fenix2 run: 2,808 heart rates, 2,809 positions and 2,809 cadences.
            #expect(page.contains("8,426 recorded samples"))
            #expect(page.contains("Type your username, ana, to confirm"))

            // A wrong or missing name deletes nothing and says so.
            for typed in ["", "bob", "<script>alert(1)</script>"] {
                let refused = try await ana.post("/settings/reset-workouts", [("username", typed)], csrfFrom: "/settings/reset-workouts")
                #expect(refused.status == .unprocessableEntity)
                #expect(refused.contains(typed.isEmpty ? "Type your username to confirm." : "That is not your username; nothing was deleted."))
                #expect(!refused.contains("<script>alert(1)"))
            }
            #expect(try await rowCount("workouts", app.db) == 2)
            #expect(try await rowCount("heart_rate_samples", app.db) == samplesBefore)
            // Without the form's CSRF token nothing happens either.
            #expect(try await ana.post("/settings/reset-workouts", [("username", "ana")], csrfFrom: nil).status == .forbidden)

            let done = try await ana.post("/settings/reset-workouts", [("username", "ana")], csrfFrom: "/settings/reset-workouts")
            #expect(done.status == .seeOther && done.location == "/workouts")
            #expect(try await ana.get("/workouts").contains("Your workouts, recorded data, goals and reminders are deleted."))
            #expect(try await rowCount("workouts", app.db) == 1, "Bob's workout stays")
            #expect(try await rowCount("heart_rate_samples", app.db) == samplesBefore / 2)
            #expect(try await rowCount("location_samples", app.db) > 0)
            #expect(try await rowCount("workout_files", app.db) == 1)
            #expect(try await rowCount("goals", app.db) == 0)
            #expect(try await rowCount("reminders", app.db) == 0)
            #expect(try await rowCount("privacy_zones", app.db) == 1, "privacy zones stay")
            #expect(try await rowCount("device_tokens", app.db) == 2, "devices stay")
            let bobsPage = try await bob.get("/workouts")
            #expect(bobsPage.contains("1 workout"))
            // Anonymous visitors are sent to sign in.
            #expect(try await app.browser().get("/settings/reset-workouts").status == .seeOther)
        }
    }
}
