@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// Holes a privacy review found (issue 18), each with the test that failed before its fix.
@Suite("Privacy: strangers, children and requests")
struct PrivacyTests {
    /// A stranger cannot tell a private person from nobody, and cannot reach a child at all: requests to
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

            // The child: the stranger is told it went, and nothing is sent or stored.
            let toKid = try await sam.post("/coach/invite", [("username", "kid")], csrfFrom: "/coach")
            #expect(toKid.status == .seeOther)
            let kidInvite = try await sam.post("/teams/\(team)/invites", [("username", "kid")], csrfFrom: "/teams/\(team)")
            #expect(kidInvite.status == .seeOther)
            #expect(try await rowCount("coach_grants", app.db) == 0)
            #expect(try await rowCount("team_invites", app.db) == 0)
            #expect(try await rowCount("notifications", app.db) == 0)
            #expect(!(try await kid.get("/notifications").contains("Sam Stranger")))

            // Once she follows him, his requests reach her.
            #expect(try await kid.post("/u/sam/follow", [], csrfFrom: "/u/sam").status == .seeOther)
            #expect(try await sam.post("/coach/invite", [("username", "kid")], csrfFrom: "/coach").status == .seeOther)
            #expect(try await sam.post("/teams/\(team)/invites", [("username", "kid")], csrfFrom: "/teams/\(team)").status == .seeOther)
            #expect(try await rowCount("coach_grants", app.db) == 1)
            #expect(try await rowCount("team_invites", app.db) == 1)
            let told = try await kid.get("/notifications")
            #expect(told.contains("Sam Stranger"))
        }
    }
}
