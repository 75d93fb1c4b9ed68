@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

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
            #expect(seen.status == .ok && seen.main.contains("Dog walk") && seen.main.contains("Hiking") && !seen.contains("/edit"))
            #expect(try await ben.get("/workouts/\(id)/edit").status == .notFound)
            #expect(
                try await ben.post("/workouts/\(id)/edit", [("name", "Mine"), ("sport", "running"), ("visibility", "public")], csrfFrom: "/").status
                    == .notFound)
        }
    }
}
