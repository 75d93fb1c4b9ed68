@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Statistics")
struct StatsTests {
    @Test func twelvePeriodsWithAveragesMaximaAndTotals() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "UTC")
            let yesterday = formatter.string(from: app.clock.now.addingTimeInterval(-86_400))
            let earlier = formatter.string(from: app.clock.now.addingTimeInterval(-40 * 86_400))
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
            #expect(
                months.contains(
                    #"<th scope="row">Duration</th><td data-label="Average">45:00</td><td data-label="Maximum">1:00:00</td><td data-label="Total">1:30:00</td>"#
                ))
            #expect(
                months.contains(
                    #"<th scope="row">Distance</th><td data-label="Average">15.00 km</td><td data-label="Maximum">24.00 km</td><td data-label="Total">30.00 km</td>"#
                ))
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
            // The same goal twice would count the same workouts twice: refused, nothing added.
            let twice = try await ana.post("/goals", [("period", "week"), ("metric", "distance"), ("target", "30")], csrfFrom: "/goals")
            #expect(twice.status == .conflict && twice.contains("You already have a weekly distance goal"))
            #expect(try await Goal.query(on: app.db).count() == 2)

            // Short workouts inside today (UTC, Ana's zone), whatever the time of day the test runs.
            let token = try await ana.deviceToken()
            let now = app.clock.milliseconds
            let base = max(now - 300_000, now - now % 86_400_000 + 1000)
            let first = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "walking", "start": \#(base), "end": \#(base + 60_000)}"#)
            #expect(first.status == .created)
            var page = try await ana.get("/goals")
            #expect(page.contains("Daily duration: 2 min") && page.contains("1 min of 2 min today (50 %)"))
            #expect(page.contains(#"<progress max="100" value="50">"#))
            #expect(page.contains("Remove the goal “Daily duration: 2 min”?") && page.contains("Yes, remove it"), "removing asks first")
            #expect(try await rowCount("notifications", app.db) == 0)

            // Another minute reaches it: one notification, and only one however much more follows.
            _ = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "yoga", "start": \#(base + 60_000), "end": \#(base + 120_000)}"#)
            _ = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"sport": "strength", "start": \#(base + 120_000), "end": \#(base + 140_000)}"#)
            page = try await ana.get("/goals")
            #expect(page.contains("2 min of 2 min today (116 %)"))
            let notes = try await Notification.query(on: app.db).all()
            #expect(notes.count == 1 && notes.first?.text.contains("daily goal of 2 min") == true)

            // A recording workout freezes the goals.
            _ = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "running", "external_id": "live-1"}"#)
            let frozen = try await ana.post("/goals", [("period", "week"), ("metric", "steps"), ("target", "50000")], csrfFrom: "/goals")
            #expect(frozen.status == .conflict && frozen.contains("still being recorded"))
            let id = try #require(try await Goal.query(on: app.db).first()?.requireID().uuidString.lowercased())
            #expect(try await ana.post("/goals/\(id)/toggle", [], csrfFrom: "/goals").status == .conflict)
            _ = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"external_id": "live-1", "end": \#(app.clock.milliseconds + 1000)}"#)
            #expect(try await ana.post("/goals/\(id)/toggle", [], csrfFrom: "/goals").status == .seeOther)
            #expect(try await ana.get("/goals").contains("(off)"))

            let ben = app.browser()
            try await ben.signUp("ben")
            #expect(try await ben.post("/goals/\(id)/delete", [], csrfFrom: "/goals").status == .notFound)
        }
    }
}
