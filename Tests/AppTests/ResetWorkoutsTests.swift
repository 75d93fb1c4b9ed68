@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

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
