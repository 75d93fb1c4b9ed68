@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Game invitations: asking a person to a pick-up game")
struct GameInviteTests {
    /// The organiser of a private game asks a friend: the friend is told once, may now see the game
    /// (nobody else may) and joins in one step. Mistakes come back with what was typed.
    @Test func anOrganiserInvitesAFriendWhoJoinsInOneStep() async throws {
        try await withApp { app in
            let oda = app.browser(), ana = app.browser(), eve = app.browser(), ben = app.browser()
            for (browser, name) in [(oda, "oda"), (ana, "ana"), (eve, "eve"), (ben, "ben")] { try await browser.signUp(name) }
            try await oda.befriend(ana, "ana", me: "oda")
            try await oda.befriend(ben, "ben", me: "oda")
            // A private game grows out of a plan; its privacy is what matters here.
            let url = try await oda.createPickup()
            try await Game.query(on: app.db).set(\.$privacy, to: Team.Privacy.private.rawValue).update()
            #expect(try await ana.get(url).status == .notFound, "a private game is its players' business")
            // The form offers the people Oda follows or who follow her.
            let page = try await oda.get(url)
            #expect(page.main.contains("Invite someone") && page.main.contains(#"<option value="ana">"#))
            #expect(!page.main.contains(#"<option value="eve">"#))

            // Nobody by that name; a stranger; an empty field: 4xx, the typed name kept, nothing sent.
            let unknown = try await oda.post("\(url)/invites", [("username", "nobody_here")], csrfFrom: url)
            #expect(unknown.status == .unprocessableEntity && unknown.main.contains(#"value="nobody_here""#))
            #expect(unknown.main.contains("Nobody has the username") && unknown.main.contains(#"aria-describedby="invite-error""#))
            let stranger = try await oda.post("\(url)/invites", [("username", "eve")], csrfFrom: url)
            #expect(stranger.status == .unprocessableEntity && stranger.main.contains("You can invite people you follow"))
            #expect(try await oda.post("\(url)/invites", [("username", " ")], csrfFrom: url).status == .unprocessableEntity)
            #expect(try await ana.post("\(url)/invites", [("username", "ben")], csrfFrom: "/").status == .notFound, "not hers to see")

            // Twice: one invitation, one notification.
            for _ in 0..<2 {
                let sent = try await oda.post("\(url)/invites", [("username", "@Ana")], csrfFrom: url)
                #expect(sent.status == .seeOther && sent.location == url)
            }
            #expect(try await GameInvite.query(on: app.db).count() == 1)
            let bell = try await ana.get("/notifications")
            #expect(bell.main.components(separatedBy: "Oda invited you to a volleyball game").count == 2)
            #expect(bell.main.contains(url))
            let invited = try await ana.get(url)
            #expect(invited.status == .ok && invited.main.contains("Oda invited you to this game.") && invited.main.contains("Join game"))
            #expect(try await eve.get(url).status == .notFound, "the invitation opens the game to Ana alone")

            #expect(try await ana.post("\(url)/join", [], csrfFrom: url).status == .seeOther)
            #expect(try await ana.get(url).main.contains("Leave game"))
            #expect(try await GameInvite.query(on: app.db).count() == 0, "joining uses the invitation up")
            // Someone already playing is not invited again.
            let again = try await oda.post("\(url)/invites", [("username", "ana")], csrfFrom: url)
            #expect(again.status == .conflict && again.main.contains("Ana is already on this game") && again.main.contains(#"value="ana""#))
            // A player may not invite to a private game: its guest list is the organiser's.
            #expect(try await ana.post("\(url)/invites", [("username", "oda")], csrfFrom: url).status == .forbidden)
            #expect(!(try await ana.get(url).main.contains("Invite someone")))
            // An adult is not asked to a game for 12–14-year-olds.
            let young = try await oda.createPickup(age: "12-14")
            let tooOld = try await oda.post("\(young)/invites", [("username", "ben")], csrfFrom: young)
            #expect(tooOld.status == .unprocessableEntity && tooOld.main.contains("Ben cannot play in this game"))
        }
    }

    /// An organiser's invitation lets its invitee into a protected game without a request and onto
    /// the waitlist when it is full; a player's invitation is a tip, and the organiser still decides.
    @Test func theGamesRulesStillApply() async throws {
        try await withApp { app in
            let oda = app.browser(), ana = app.browser(), ben = app.browser(), cai = app.browser()
            for (browser, name) in [(oda, "oda"), (ana, "ana"), (ben, "ben"), (cai, "cai")] { try await browser.signUp(name) }
            try await oda.befriend(ana, "ana", me: "oda")
            try await oda.befriend(ben, "ben", me: "oda")
            try await ben.befriend(cai, "cai", me: "ben")
            let url = try await oda.createPickup(privacy: "protected", capacity: 2)
            #expect(try await oda.post("\(url)/invites", [("username", "ana")], csrfFrom: url).status == .seeOther)
            #expect(try await ana.get(url).main.contains("Join game"), "no request to make")
            #expect(try await ana.post("\(url)/join", [], csrfFrom: url).status == .seeOther)
            #expect(try await ana.get(url).main.contains("Leave game"))
            // Full now (Oda and Ana): Ben, invited, waits.
            #expect(try await oda.post("\(url)/invites", [("username", "ben")], csrfFrom: url).status == .seeOther)
            #expect(try await ben.get(url).main.contains("Join the waitlist"))
            #expect(try await ben.post("\(url)/join", [], csrfFrom: url).status == .seeOther)
            let status = try await GamePlayer.query(on: app.db).join(User.self, on: \GamePlayer.$user.$id == \User.$id)
                .filter(User.self, \.$username == "ben").first()?.status
            #expect(status == .waitlisted)
            // Ben, waiting, tells Cai: Cai still asks the organiser.
            #expect(try await ben.post("\(url)/invites", [("username", "cai")], csrfFrom: url).status == .seeOther)
            #expect(try await cai.get("/notifications").main.contains("Ben invited you to a volleyball game"))
            #expect(try await cai.get(url).main.contains("Ask to join"))
        }
    }

    /// Nobody reaches someone across a block, or a child who does not know them; the inviter is
    /// told it was sent either way. Invitations go with a block, go with the account.
    @Test func blocksAndChildrenAreNeverReachedAndInvitationsAreCapped() async throws {
        try await withApp { app in
            let oda = app.browser(), ana = app.browser(), kid = app.browser()
            try await oda.signUp("oda")
            try await ana.signUp("ana")
            try await kid.signUp("kim", birthDate: "\(app.clock.today.year - 13)-03-01")
            try await oda.befriend(ana, "ana", me: "oda")
            let url = try await oda.createPickup()
            #expect(try await ana.post("/u/oda/block", [], csrfFrom: "/u/oda").status == .seeOther)
            // The block ended their follows: answered as for anyone who does not follow, or is not followed by, Oda.
            let blocked = try await oda.post("\(url)/invites", [("username", "ana")], csrfFrom: url)
            #expect(blocked.status == .unprocessableEntity && blocked.main.contains("You can invite people you follow"))
            // Kim's profile is public, but she does not know Oda.
            _ = try await oda.post("/u/kim/follow", [], csrfFrom: "/u/kim")
            let child = try await oda.post("\(url)/invites", [("username", "kim")], csrfFrom: url)
            #expect(child.status == .seeOther || child.status == .unprocessableEntity)
            #expect(try await GameInvite.query(on: app.db).count() == 0)
            #expect(!(try await ana.get("/notifications").main.contains("invited you")))
            #expect(!(try await kid.get("/notifications").main.contains("invited you")))

            // The daily cap: counted per inviter over a day, a clear 429 that keeps the name.
            let odaID = try #require(try await User.query(on: app.db).filter(\.$username == "oda").first()?.requireID())
            let gameID = try #require(UUID(uuidString: String(url.split(separator: "/").last ?? "")))
            for _ in 0..<GameInvite.dailyLimit {
                let someone = User(
                    username: "p\(UUID().uuidString.prefix(8).lowercased())", email: "\(UUID().uuidString)@example.org", passwordHash: "x", displayName: "P",
                    birthDate: "1990-01-01")
                try await someone.create(on: app.db)
                try await GameInvite(gameID: gameID, invitee: someone.requireID(), inviter: odaID, byOrganiser: true, at: app.clock.now).create(on: app.db)
            }
            let eve = app.browser()
            try await eve.signUp("eve")
            try await oda.befriend(eve, "eve", me: "oda")
            let capped = try await oda.post("\(url)/invites", [("username", "eve")], csrfFrom: url)
            #expect(capped.status == .tooManyRequests && capped.main.contains("the most a day allows") && capped.main.contains(#"value="eve""#))
            app.clock.advance(by: 86_400 + 60)
            #expect(try await oda.post("\(url)/invites", [("username", "eve")], csrfFrom: url).status == .seeOther)

            // Gone with her account.
            #expect(try await GameInvite.query(on: app.db).filter(\.$inviter.$id == odaID).count() == GameInvite.dailyLimit + 1)
            let deleted = try await oda.post(
                "/settings/delete-account", [("username", "oda"), ("password", Browser.password)], csrfFrom: "/settings/delete-account")
            #expect(deleted.status == .seeOther)
            #expect(try await GameInvite.query(on: app.db).filter(\.$inviter.$id == odaID).count() == 0)
        }
    }

    /// A stranger's invitation reads the same whoever the person is: an adult, a child, or someone
    /// who blocked the inviter. An answer of "invited" for the child alone would tell an adult
    /// stranger that the account is a child's.
    @Test func strangersReadTheSameAnswerForAChildAndForSomeoneWhoBlockedThem() async throws {
        try await withApp { app in
            let oda = app.browser(), ada = app.browser(), kim = app.browser(), bea = app.browser()
            try await oda.signUp("oda")
            try await ada.signUp("ada")
            try await kim.signUp("kim", birthDate: app.clock.today.adding(days: -15 * 366).description)
            try await bea.signUp("bea")
            // Kim made her profile public: a hidden one reads as a name nobody has.
            #expect(try await kim.post("/settings/privacy", [("visibility", "public")], csrfFrom: "/settings/privacy").status == .seeOther)
            #expect(try await bea.post("/u/oda/block", [], csrfFrom: "/u/oda").status == .seeOther)
            let url = try await oda.createPickup()
            var answers: [String] = []
            for name in ["ada", "kim", "bea"] {
                let answer = try await oda.post("\(url)/invites", [("username", name)], csrfFrom: url)
                #expect(answer.status == .unprocessableEntity, "\(name)")
                answers.append(try #require(answer.firstMatch(#"<p class="error" id="invite-error">([^<]*)</p>"#)))
            }
            #expect(Set(answers).count == 1 && answers[0].contains("You can invite people you follow"), "the same answer for all three: \(answers)")
            #expect(try await GameInvite.query(on: app.db).count() == 0)

            // Oda follows Kim, who let her, but Kim does not follow Oda: a game for adults answers as
            // if sent, as it does for Ada, not with Kim's age group; Kim hears nothing.
            #expect(try await oda.post("/u/kim/follow", [], csrfFrom: "/u/kim").status == .seeOther)
            #expect(try await kim.post("/friends/requests/oda/approve", [], csrfFrom: "/friends").status == .seeOther)
            #expect(try await oda.post("/u/ada/follow", [], csrfFrom: "/u/ada").status == .seeOther)
            let adults = try await oda.createPickup(age: "18+")
            for name in ["kim", "ada"] {
                let answer = try await oda.post("\(adults)/invites", [("username", name)], csrfFrom: adults)
                #expect(answer.status == .seeOther && !answer.body.contains("cannot play"), "\(name)")
            }
            #expect(!(try await kim.get("/notifications").main.contains("invited you")))
        }
    }
}
