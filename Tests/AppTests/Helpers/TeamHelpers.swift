@testable import App
import Fluent
import Foundation
import Testing
import Vapor

extension Browser {
    /// Creates a team through the form and returns its slug.
    func createTeam(_ name: String, privacy: String = "protected", sport: String = "futsal", looking: Bool = true, extra: [(String, String)] = []) async throws
        -> String
    {
        let page = try await post(
            "/teams/new",
            [
                ("name", name), ("sport", sport), ("privacy", privacy), ("age_group", "any"), ("gender", "any"),
                ("skill", "any"), ("description", "We play on Thursdays."),
            ] + (looking ? [("looking_for_players", "on")] : []) + extra, csrfFrom: "/teams/new")
        #expect(page.status == .seeOther, "team not created: \(page.body.prefix(400))")
        let location = try #require(page.location)
        return String(location.dropFirst("/teams/".count))
    }
}

/// Everyone who can stand in some relation to one team, each with their own browser.
struct TeamCast {
    let slug: String
    let anonymous, stranger, requester, invitee, player, coach, manager, owner: Browser

    var everyone: [(String, Browser)] {
        [
            ("anonymous", anonymous), ("stranger", stranger), ("requester", requester), ("invitee", invitee),
            ("player", player), ("coach", coach), ("manager", manager), ("owner", owner),
        ]
    }

    /// Builds the cast through the real pages: invitations, requests, approvals and role changes.
    static func make(_ app: TestApp, privacy: String) async throws -> TeamCast {
        let owner = app.browser(); try await owner.signUp("owner_o", name: "Olga Owner")
        let manager = app.browser(); try await manager.signUp("manager_m", name: "Mads Manager")
        let coach = app.browser(); try await coach.signUp("coach_c", name: "Cleo Coach")
        let player = app.browser(); try await player.signUp("player_p", name: "Pia Player")
        let requester = app.browser(); try await requester.signUp("requester_r", name: "Rui Requester")
        let invitee = app.browser(); try await invitee.signUp("invitee_i", name: "Ines Invitee")
        let stranger = app.browser(); try await stranger.signUp("stranger_s", name: "Sven Stranger")
        let slug = try await owner.createTeam("Matrix United", privacy: "protected")

        for (name, browser) in [("manager_m", manager), ("coach_c", coach), ("player_p", player)] {
            try await owner.post("/teams/\(slug)/invites", [("username", name)], csrfFrom: "/teams/\(slug)")
            let id = try #require(try await browser.get("/teams").firstMatch(#"action="/invites/([^/]+)/accept""#))
            try await browser.post("/invites/\(id)/accept", [], csrfFrom: "/teams")
        }
        try await owner.post("/teams/\(slug)/members/manager_m/role", [("role", "manager")], csrfFrom: "/teams/\(slug)")
        try await owner.post("/teams/\(slug)/members/coach_c/role", [("role", "coach")], csrfFrom: "/teams/\(slug)")
        try await requester.post("/teams/\(slug)/join", [("message", "Can I play?")], csrfFrom: "/teams/\(slug)")
        try await owner.post("/teams/\(slug)/invites", [("username", "invitee_i")], csrfFrom: "/teams/\(slug)")
        if privacy != "protected" {
            try await owner.post("/teams/\(slug)/edit", TeamCast.validEdit(privacy: privacy), csrfFrom: "/teams/\(slug)/edit")
        }
        return TeamCast(
            slug: slug, anonymous: app.browser(), stranger: stranger, requester: requester, invitee: invitee,
            player: player, coach: coach, manager: manager, owner: owner)
    }

    static func validEdit(privacy: String) -> [(String, String)] {
        [
            ("name", "Matrix United"), ("sport", "futsal"), ("privacy", privacy), ("age_group", "any"),
            ("gender", "any"), ("skill", "any"), ("description", "Edited."), ("looking_for_players", "on"),
        ]
    }
}
