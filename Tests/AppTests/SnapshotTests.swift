@testable import App
import Foundation
import Testing

/// The main pages as whole HTML, so a template change shows up as a diff of the page (see
/// `Snapshot`). What a person must see on them is asserted in each feature's own tests.
@Suite struct SnapshotTests {
    @Test func theFrontPageAndSignIn() async throws {
        try await withApp { app in
            let visitor = app.browser()
            try Snapshot.check(try await visitor.get("/").body, named: "landing")
            try Snapshot.check(try await visitor.get("/login").body, named: "login")
        }
    }

    @Test func aWorkoutPageForItsOwner() async throws {
        try await withApp { app in
            let (ana, id) = try await WorkoutPageTests.anaWithWorkouts(app)
            let page = try await ana.get("/workouts/\(id)")
            #expect(page.status == .ok)
            try Snapshot.check(page.body, named: "workout")
        }
    }

    @Test func aTeamPageAndAProfile() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana", name: "Ana Lima")
            let slug = try await ana.createTeam("Riverside Futsal", privacy: "public")
            _ = try await ana.get("/teams/\(slug)") // takes the "created" message
            let team = try await ana.get("/teams/\(slug)")
            #expect(team.status == .ok)
            try Snapshot.check(team.body, named: "team")
            let profile = try await ana.get("/u/ana")
            #expect(profile.status == .ok)
            try Snapshot.check(profile.body, named: "profile")
        }
    }
}
