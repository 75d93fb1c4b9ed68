@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Team invitations by e-mail: a link that opens sign-up and then the team")
struct TeamEmailInviteTests {
    static let subject = "Mads invited you to join Riverside on Fieldhouse"

    /// A manager invites an address nobody uses and one that has an account: the answers are the
    /// same, both get the e-mail, and the link signs the newcomer up and into the team once.
    @Test func aNewcomerSignsUpFromTheLinkAndJoinsOnce() async throws {
        try await withMailApp { app, sink in
            let mads = app.browser(), ana = app.browser()
            try await mads.signUp("mads")
            try await ana.signUp("ana")
            let slug = try await mads.createTeam("Riverside")
            let team = "/teams/\(slug)"

            // Bad input comes back with what was typed.
            let bad = try await mads.post("\(team)/email-invites", [("email", "not an address")], csrfFrom: team)
            #expect(bad.status == .unprocessableEntity && bad.main.contains(#"value="not an address""#))
            #expect(bad.main.contains("Enter an email address like name@example.com") && bad.main.contains("invite-email-error"))
            #expect(try await mads.post("\(team)/email-invites", [("email", "  ")], csrfFrom: team).status == .unprocessableEntity)
            #expect(try await ana.post("\(team)/email-invites", [("email", "x@example.org")], csrfFrom: "/").status == .forbidden)

            // A free address and a taken one read exactly the same.
            var answers: [String] = []
            for address in ["new.person@example.org", "ANA@example.org"] {
                let sent = try await mads.post("\(team)/email-invites", [("email", address)], csrfFrom: team)
                #expect(sent.status == .seeOther && sent.location == team + "#invite")
                answers.append(try await mads.get(team).body.replacingOccurrences(of: address.lowercased(), with: "…"))
            }
            #expect(answers.allSatisfy { $0.contains("Invitation sent to ….") })
            #expect(try await mads.get(team).main.contains("new.person@example.org"), "listed as waiting")

            try await app.app.jobs.runDue(app.app)
            let mail = try #require(try sink.messages(to: "new.person@example.org").first)
            #expect(mail.subject == Self.subject && mail.text.hasPrefix("Hello,") && mail.headers["list-unsubscribe"] == nil)
            #expect(try sink.messages(to: "ana@example.org").contains { $0.subject == Self.subject }, "an account gets the same e-mail")
            let base = app.app.config.baseURL
            let link = try #require(mail.link(startingWith: base + "/team-invitations/"))
            let path = String(link.dropFirst(base.count))
            let token = String(path.dropFirst("/team-invitations/".count))
            let rows = try await app.sql.raw("SELECT token_hash FROM team_email_invites").all()
            #expect(rows.count == 2)
            for row in rows { #expect(try row.decode(column: "token_hash", as: String.self) != token, "only a hash is kept") }

            // The link opens sign-up, which comes back to it.
            let newcomer = app.browser()
            let landing = try await newcomer.get(path)
            #expect(landing.status == .ok && landing.main.contains("Mads invited you to join the team."))
            let signUpURL = try #require(landing.firstMatch(#"href="(/signup\?next=[^"]+)""#))
            let form = try await newcomer.get(signUpURL.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(form.main.contains(#"name="next" value="\#(path)""#))
            let made = try await newcomer.post(
                "/signup",
                [
                    ("username", "newbie"), ("email", "new.person@example.org"), ("password", Browser.password), ("display_name", "New Person"),
                    ("birth_date", "1995-02-03"), ("next", path),
                ], csrfFrom: signUpURL.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(made.status == .seeOther && made.location == path)
            #expect(try await newcomer.get(path).main.contains("Join Riverside"))
            let joined = try await newcomer.post(path, [], csrfFrom: path)
            #expect(joined.status == .seeOther && joined.location == team)
            #expect(try await newcomer.get(team).contains("Welcome to Riverside!"))
            #expect(!(try await mads.get(team).main.contains("new.person@example.org")), "used: no longer waiting, the address forgotten")

            // Used: it says so, to anyone, and lets nobody else in.
            let ben = app.browser()
            try await ben.signUp("ben")
            let used = try await ben.get(path)
            #expect(used.status == .gone && used.main.contains("has been used already"))
            #expect(try await ben.post(path, [], csrfFrom: path).status == .gone)
            #expect(try await Membership.query(on: app.db).count() == 2, "Mads and the newcomer")
            #expect(try await app.browser().get("/team-invitations/" + String(repeating: "a", count: 43)).status == .notFound)

            // Ana's link expires after 14 days.
            let anaMail = try #require(try sink.messages(to: "ana@example.org").first { $0.subject == Self.subject })
            let anaPath = String(try #require(anaMail.link(startingWith: base + "/team-invitations/")).dropFirst(base.count))
            app.clock.advance(by: 15 * 86_400)
            let expired = try await ana.get(anaPath)
            #expect(expired.status == .gone && expired.main.contains("has expired"))
            #expect(try await ana.post(anaPath, [], csrfFrom: anaPath).status == .gone)
            #expect(try await mads.get(team).main.contains("expired"), "listed as expired until withdrawn")
            // A month after that, the invitation and the address are gone.
            app.clock.advance(by: TeamEmailInviteJob.keptAfterExpiry + 3600)
            try await app.app.jobs.runDue(app.app)
            #expect(try await TeamEmailInvite.query(on: app.db).count() == 0)
            #expect(try await ana.get(anaPath).status == .notFound)
        }
    }

    /// Managers withdraw an invitation (its link stops working); nobody blocked hears anything; each
    /// sender has 20 a day, then a clear 429 that keeps what was typed.
    /// Two invitations to one team, opened by one person at the same moment: one membership, and
    /// both presses land on the team.
    @Test func twoLinksToOneTeamAtOnceMakeOneMembership() async throws {
        try await withMailApp { app, sink in
            let mads = app.browser(), ana = app.browser()
            try await mads.signUp("mads")
            try await ana.signUp("ana")
            let slug = try await mads.createTeam("Riverside")
            let team = "/teams/\(slug)"
            for address in ["ana@example.org", "ana.work@example.org"] {
                #expect(try await mads.post("\(team)/email-invites", [("email", address)], csrfFrom: team).status == .seeOther)
            }
            try await app.app.jobs.runDue(app.app)
            let base = app.app.config.baseURL
            let paths = try ["ana@example.org", "ana.work@example.org"].map { address in
                String(
                    try #require(try sink.messages(to: address).first { $0.subject == Self.subject }?.link(startingWith: base + "/team-invitations/"))
                        .dropFirst(base.count))
            }
            let token = try #require(try await ana.get(paths[0]).csrf)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for path in paths {
                    let tab = app.browser()
                    for (name, value) in ana.cookies { tab.setCookie(name, value) }
                    group.addTask { try await tab.post(path, [("csrf", token)], csrfFrom: nil).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == [.seeOther, .seeOther])
            #expect(try await Membership.query(on: app.db).count() == 2, "Mads and Ana, once")
        }
    }

    /// A server that sends no e-mail offers no e-mail invitations, rather than saying one was sent.
    @Test func withoutAMailServerThereIsNoEmailInvitation() async throws {
        try await withApp { app in
            let mads = app.browser()
            try await mads.signUp("mads")
            let slug = try await mads.createTeam("Riverside")
            let team = "/teams/\(slug)"
            #expect(try await !mads.get(team).contains("Invite someone by e-mail"))
            let refused = try await mads.post("\(team)/email-invites", [("email", "new@example.org")], csrfFrom: team)
            #expect(refused.status == .conflict && refused.contains("does not send e-mail"))
            #expect(try await TeamEmailInvite.query(on: app.db).count() == 0)
        }
    }

    @Test func withdrawingBlocksAndTheDailyLimit() async throws {
        try await withMailApp { app, sink in
            let mads = app.browser(), ana = app.browser()
            try await mads.signUp("mads")
            try await ana.signUp("ana")
            let slug = try await mads.createTeam("Riverside")
            let team = "/teams/\(slug)"
            #expect(try await mads.post("\(team)/email-invites", [("email", "gone@example.org")], csrfFrom: team).status == .seeOther)
            try await app.app.jobs.runDue(app.app)
            let base = app.app.config.baseURL
            let path = String(
                try #require(try sink.messages(to: "gone@example.org").first?.link(startingWith: base + "/team-invitations/")).dropFirst(base.count))
            let id = try #require(try await TeamEmailInvite.query(on: app.db).first()?.requireID())
            #expect(try await ana.post("\(team)/email-invites/\(SiteURL.id(id))/cancel", [], csrfFrom: "/").status == .forbidden)
            let withdrawn = try await mads.post("\(team)/email-invites/\(SiteURL.id(id))/cancel", [], csrfFrom: team)
            #expect(withdrawn.status == .seeOther)
            #expect(try await app.browser().get(path).status == .notFound)

            // Ana blocked Mads: the page says sent, and no e-mail goes.
            #expect(try await ana.post("/u/mads/block", [], csrfFrom: "/u/mads").status == .seeOther)
            let blocked = try await mads.post("\(team)/email-invites", [("email", "ana@example.org")], csrfFrom: team)
            #expect(blocked.status == .seeOther)
            #expect(try await mads.get(team).contains("Invitation sent to ana@example.org."))
            try await app.app.jobs.runDue(app.app)
            #expect(!(try sink.messages(to: "ana@example.org").contains { $0.subject == Self.subject }))

            // The limit, counted over a day.
            let madsID = try #require(try await User.query(on: app.db).filter(\.$username == "mads").first()?.requireID())
            let teamID = try #require(try await Team.query(on: app.db).first()?.requireID())
            for n in 0..<(TeamEmailInvite.dailyLimit - 1) {
                try await TeamEmailInvite.make(teamID: teamID, by: madsID, email: "p\(n)@example.org", now: app.clock.now, secret: app.app.serverSecret)
                    .invite.create(on: app.db)
                try await TeamEmailInviteSend(sender: madsID, at: app.clock.now).create(on: app.db)
            }
            let capped = try await mads.post("\(team)/email-invites", [("email", "one.more@example.org")], csrfFrom: team)
            #expect(capped.status == .tooManyRequests && capped.main.contains("the most a day allows"))
            #expect(capped.main.contains(#"value="one.more@example.org""#))
            app.clock.advance(by: 86_400 + 60)
            #expect(try await mads.post("\(team)/email-invites", [("email", "one.more@example.org")], csrfFrom: team).status == .seeOther)
        }
    }

    /// A profile hidden from the sender skips none of the rules: a child who does not know them, or
    /// someone who blocked them, gets no e-mail even with a private profile, and the answer reads
    /// the same.
    @Test func aHiddenProfileStillKeepsChildrenAndBlocksFromTheMail() async throws {
        try await withMailApp { app, sink in
            let mads = app.browser(), kid = app.browser(), ana = app.browser()
            try await mads.signUp("mads")
            try await kid.signUp("kid", birthDate: app.clock.today.adding(days: -15 * 366).description)
            try await ana.signUp("ana")
            for person in [kid, ana] {
                #expect(try await person.post("/settings/privacy", [("visibility", "private")], csrfFrom: "/settings/privacy").status == .seeOther)
            }
            #expect(try await ana.post("/u/mads/block", [], csrfFrom: "/u/mads").status == .seeOther)
            let slug = try await mads.createTeam("Riverside")
            let team = "/teams/\(slug)"
            for address in ["kid@example.org", "ana@example.org", "new.person@example.org"] {
                let sent = try await mads.post("\(team)/email-invites", [("email", address)], csrfFrom: team)
                #expect(sent.status == .seeOther)
                #expect(try await mads.get(team).contains("Invitation sent to \(address)."))
            }
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages(to: "new.person@example.org").contains { $0.subject == Self.subject })
            #expect(!(try sink.messages(to: "kid@example.org").contains { $0.subject == Self.subject }), "a stranger cannot reach a child")
            #expect(!(try sink.messages(to: "ana@example.org").contains { $0.subject == Self.subject }), "nor someone who blocked them")
        }
    }

    /// Withdrawing an invitation does not give back the day's allowance: sending and withdrawing in
    /// turn would otherwise mail one address without end.
    @Test func withdrawingDoesNotResetTheDailyLimit() async throws {
        try await withMailApp { app, sink in
            let mads = app.browser()
            try await mads.signUp("mads")
            let slug = try await mads.createTeam("Riverside")
            let team = "/teams/\(slug)"
            for _ in 0..<TeamEmailInvite.dailyLimit {
                #expect(try await mads.post("\(team)/email-invites", [("email", "victim@example.org")], csrfFrom: team).status == .seeOther)
                let id = try #require(try await TeamEmailInvite.query(on: app.db).filter(\.$usedAt == nil).first()?.requireID())
                #expect(try await mads.post("\(team)/email-invites/\(SiteURL.id(id))/cancel", [], csrfFrom: team).status == .seeOther)
                #expect(try await mads.post("\(team)/email-invites/\(SiteURL.id(id))/cancel", [], csrfFrom: team).status == .notFound)
            }
            let capped = try await mads.post("\(team)/email-invites", [("email", "victim@example.org")], csrfFrom: team)
            #expect(capped.status == .tooManyRequests)
            #expect(!(try await mads.get(team).main.contains("victim@example.org")), "withdrawn ones are not listed")
            let addresses = try await app.sql.raw("SELECT email FROM team_email_invites").all().map { try $0.decode(column: "email", as: String.self) }
            #expect(addresses.count == TeamEmailInvite.dailyLimit && addresses.allSatisfy(\.isEmpty), "kept for the count, without the address")
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages(to: "victim@example.org").isEmpty, "withdrawn before the job ran: nothing sent")
            // Deleting the team, whose invitations go with it, does not start the count again.
            #expect(try await mads.post("\(team)/delete", [], csrfFrom: "\(team)/delete").status == .seeOther)
            #expect(try await TeamEmailInvite.query(on: app.db).count() == 0)
            let again = "/teams/\(try await mads.createTeam("Riverside Again"))"
            #expect(try await mads.post("\(again)/email-invites", [("email", "victim@example.org")], csrfFrom: again).status == .tooManyRequests)
        }
    }
}
