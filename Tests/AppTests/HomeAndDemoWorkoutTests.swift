@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Home page: today")
struct HomeTodayTests {
    @Test func activeMinutesGoalsAndLastWorkouts() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            var home = try await ana.get("/")
            // Ana is an adult: the WHO's weekly advice for adults, not the daily one for children.
            #expect(home.contains("0 of 150 active minutes this week") && home.contains("advises adults") && home.contains("add a goal"))
            let teen = app.browser()
            try await teen.signUp("tess", birthDate: "2011-06-01")
            let teenHome = try await teen.get("/")
            #expect(teenHome.contains("0 of 60 active minutes today") && teenHome.contains("for 5–17 year olds") && !teenHome.contains("advises adults"))
            _ = try await ana.post("/goals", [("period", "week"), ("metric", "duration"), ("target", "150")], csrfFrom: "/goals")
            let token = try await ana.deviceToken()
            let now = app.clock.milliseconds
            let start = max(now - 1_800_000, now - now % 86_400_000 + 1000)
            let minutes = (now - start) / 60_000
            _ = try await ana.api(
                .POST, "/api/v1/workouts", token: token, json: #"{"sport": "running", "name": "Before school", "start": \#(start), "end": \#(now)}"#)
            home = try await ana.get("/")
            #expect(home.contains("\(minutes) of 150 active minutes this week"))
            #expect(home.contains("<strong>Weekly duration</strong>: \(minutes) min of 150 min this week ("))
            #expect(!home.contains("add a goal"))
            #expect(home.contains("Before school"))
        }
    }
}

@Suite("Home page: people you might know")
struct HomeSuggestionTests {
    /// Suggestions are public profiles the person does not follow yet: not those they follow, nor
    /// those they have asked to follow, nor themselves.
    @Test func suggestionsLeaveOutWhomIFollow() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana", name: "Ana Costa")
            for (username, name) in [("bea", "Bea Ode"), ("cato", "Cato Lind"), ("dina", "Dina Park")] {
                try await app.browser().signUp(username, name: name)
            }
            var home = try await ana.get("/")
            #expect(home.contains("Bea Ode") && home.contains("Cato Lind") && home.contains("Dina Park"))
            #expect(try await ana.post("/u/bea/follow", [], csrfFrom: "/u/bea").status == .seeOther)
            home = try await ana.get("/")
            let suggestions = try #require(home.body.components(separatedBy: "People you might know").last)
            #expect(!suggestions.contains("Bea Ode") && suggestions.contains("Cato Lind") && !suggestions.contains("Ana Costa"))
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
            let now = app.clock.milliseconds
            #expect(workouts.allSatisfy { ($0.endMS ?? .max) <= now && $0.startMS > now - 43 * 86_400_000 }, "within six weeks, none ahead")
            #expect(workouts.contains { $0.name == "Harbour loop" && abs(($0.distance ?? 0) - 9007.07) < 0.01 && $0.avgHeartRate == 154 })
            let generated = workouts.filter { $0.startMS < now - 8 * 86_400_000 }
            #expect(generated.count >= 6, "about three a week before the last week")
            #expect(Set(generated.map(\.sport)).count >= 3, "varied sports")
            #expect(zip(workouts, workouts.dropFirst()).allSatisfy { ($0.endMS ?? 0) <= $1.startMS }, "no two overlap")
            // Generated tracks start at home and keep the shape's distance give or take its cut.
            let tracked = generated.filter { $0.sport == "running" && $0.streams.contains("latlng") }
            #expect(!tracked.isEmpty, "no generated run with a track")
            for run in tracked {
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
