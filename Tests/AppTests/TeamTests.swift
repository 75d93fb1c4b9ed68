@testable import App
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Teams: create, join, invite, manage")
struct TeamTests {
    @Test func theTeamFormExplainsEveryMistakeAndSavesNothing() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("maker")
            let cases: [([String: String], String)] = [
                (["name": ""], "Enter a name"),
                (["name": "!!! ???"], "Use some letters or digits in the name"),
                (["name": String(repeating: "n", count: 81)], "Keep the name to 80 characters or fewer"),
                (["sport": "quidditch"], "Choose a sport from the list"),
                (["latitude": "91", "longitude": "10"], "Enter a latitude between -90 and 90"),
                (["latitude": "10", "longitude": "-181"], "Enter a longitude between -180 and 180"),
                (["latitude": "55.6"], "Enter both latitude and longitude, or neither"),
                (["description": String(repeating: "d", count: 5001)], "Keep the description to 5,000 characters or fewer"),
                (["privacy": "secret"], "Choose who can find and join the team"),
                (["skill": "godlike"], "Choose a level from the list"),
                (["age_group": "99"], "Choose an age group from the list"),
            ]
            for (changes, message) in cases {
                var fields = [
                    "name": "Good Name", "sport": "futsal", "privacy": "public", "age_group": "any", "gender": "any", "skill": "any", "description": "",
                    "latitude": "", "longitude": "",
                ]
                for (key, value) in changes { fields[key] = value }
                let page = try await browser.post("/teams/new", fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, csrfFrom: "/teams/new")
                #expect(page.status == .unprocessableEntity, "\(changes) accepted")
                #expect(page.contains(message), "\(changes): expected “\(message)”")
            }
            #expect(try await Team.query(on: app.db).count() == 0)
            #expect(try await Membership.query(on: app.db).count() == 0)
        }
    }

    @Test func theCreatorOwnsTheTeamAndSlugsStayUnique() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("founder", name: "Fay Founder")
            let first = try await browser.createTeam(
                "Riverside FC", privacy: "public", extra: [("latitude", "55.68"), ("longitude", "12.57"), ("place_name", "Riverside Hall")])
            let second = try await browser.createTeam("Riverside FC!")
            #expect(first == "riverside-fc")
            #expect(second == "riverside-fc-2")
            let page = try await browser.get("/teams/riverside-fc")
            #expect(page.contains("You are Owner in this team."))
            #expect(page.contains("Riverside Hall"))
            #expect(page.main.contains("Fay Founder"))
            let mine = try await browser.get("/teams")
            #expect(mine.contains("riverside-fc-2"))
            // Renaming keeps the address.
            try await browser.post(
                "/teams/riverside-fc/edit",
                [("name", "River Rovers"), ("sport", "futsal"), ("privacy", "public"), ("age_group", "any"), ("gender", "any"), ("skill", "any")],
                csrfFrom: "/teams/riverside-fc/edit")
            #expect(try await browser.get("/teams/riverside-fc").main.contains("River Rovers"))
        }
    }

    @Test func publicTeamsTakePlayersAtOnceAndProtectedOnesAskAManager() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("boss", name: "Bea Boss")
            let open = try await owner.createTeam("Open Club", privacy: "public")
            let guarded = try await owner.createTeam("Guarded Club", privacy: "protected")
            let player = app.browser(); try await player.signUp("newbie", name: "Nils Newbie")

            try await player.post("/teams/\(open)/join", [], csrfFrom: "/teams/\(open)")
            #expect(try await player.get("/teams/\(open)").contains("You are Player in this team."))

            // Too long a message: the team page again with what was typed, and no request made.
            let long = "Keen! " + String(repeating: "x", count: 600)
            let tooLong = try await player.post("/teams/\(guarded)/join", [("message", long)], csrfFrom: "/teams/\(guarded)")
            #expect(tooLong.status == .unprocessableEntity && tooLong.contains(#"id="message-error""#) && tooLong.contains("it has 606"))
            #expect(tooLong.contains(#"value="\#(long)""#) && tooLong.contains("Ask to join"))
            #expect(try await JoinRequest.query(on: app.db).count() == 0)
            try await player.post("/teams/\(guarded)/join", [("message", "Left footed <b>and</b> keen")], csrfFrom: "/teams/\(guarded)")
            let waiting = try await player.get("/teams/\(guarded)")
            #expect(waiting.contains("waiting for a manager"))
            #expect(!waiting.contains("Bea Boss"), "a protected roster is for members only")
            #expect(waiting.contains("Only members see who plays"))
            #expect(try await player.get("/teams").contains("Waiting for a manager"))

            let managerView = try await owner.get("/teams/\(guarded)")
            #expect(managerView.contains("Requests to join"))
            #expect(managerView.contains("Left footed &lt;b&gt;and&lt;/b&gt; keen"))
            #expect(try await owner.get("/").body.contains("Notifications <span class=\"count\">1"))
            #expect(try await owner.get("/notifications").contains("Nils Newbie asked to join Guarded Club"))

            let id = try #require(managerView.firstMatch(#"/requests/([^/]+)/approve"#))
            try await owner.post("/teams/\(guarded)/requests/\(id)/approve", [], csrfFrom: "/teams/\(guarded)")
            #expect(try await player.get("/teams/\(guarded)").contains("You are Player in this team."))
            #expect(try await player.get("/notifications").contains("You are now a member of Guarded Club"))
            #expect(try await JoinRequest.query(on: app.db).count() == 0)
        }
    }

    @Test func aPrivateTeamIsInvisibleToEveryoneOutsideIt() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("secretive")
            let slug = try await owner.createTeam("Hidden Hawks", privacy: "private", extra: [("latitude", "55.68"), ("longitude", "12.57")])
            let stranger = app.browser(); try await stranger.signUp("outsider")
            for browser in [stranger, app.browser()] {
                #expect(try await browser.get("/teams/\(slug)").status == .notFound)
                #expect(!(try await browser.get("/find?lat=55.68&lon=12.57&radius_km=50").contains("Hidden Hawks")))
            }
            _ = try await owner.createTeam("Open Owls", privacy: "public")
            let profile = try await stranger.get("/u/secretive")
            #expect(profile.contains("Open Owls"), "listed teams show on the profile")
            #expect(!profile.contains("Hidden Hawks"), "private teams never do")
            #expect(!(try await owner.get("/u/secretive").contains("Hidden Hawks")))
            let join = try await stranger.post("/teams/\(slug)/join", [], csrfFrom: "/teams")
            #expect(join.status == .notFound)
            #expect(!join.contains("Hidden Hawks"))
            #expect(try await Membership.query(on: app.db).count() == 2)

            // A league that includes it does not show or count it to outsiders.
            let league = try await owner.post(
                "/leagues/new",
                [("name", "City League"), ("sport", "futsal"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", "public")],
                csrfFrom: "/leagues/new")
            let leagueURL = try #require(league.location)
            try await owner.post("\(leagueURL)/teams", [("team", slug)], csrfFrom: leagueURL)
            #expect(try await owner.get(leagueURL).main.contains("Hidden Hawks"))
            #expect(!(try await stranger.get(leagueURL).contains("Hidden Hawks")))
        }
    }

    @Test func invitationsByUsernameAndByLink() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("captain", name: "Cara Captain")
            let slug = try await owner.createTeam("Link Legends", privacy: "private")
            let friend = app.browser(); try await friend.signUp("friend_f", name: "Finn Friend")

            let unknown = try await owner.post("/teams/\(slug)/invites", [("username", "nobody_here")], csrfFrom: "/teams/\(slug)")
            #expect(unknown.status == .unprocessableEntity)
            // The team page again, the typed name kept and the message beside the field.
            #expect(unknown.contains("Nobody has the username") && unknown.contains(#"id="username-error""#))
            #expect(unknown.contains(#"value="nobody_here""#) && unknown.contains("<h1>Link Legends</h1>"))
            // Someone with a private profile looks exactly like nobody to a stranger's team.
            let hidden = app.browser(); try await hidden.signUp("hidden_kid")
            try await hidden.post("/settings/privacy", [("visibility", "private")], csrfFrom: "/settings/privacy")
            let toHidden = try await owner.post("/teams/\(slug)/invites", [("username", "hidden_kid")], csrfFrom: "/teams/\(slug)")
            #expect(toHidden.status == .unprocessableEntity)
            #expect(toHidden.contains("Nobody has the username"))
            #expect(!(try await hidden.get("/teams").contains("Link Legends")))

            try await owner.post("/teams/\(slug)/invites", [("username", "@Friend_F")], csrfFrom: "/teams/\(slug)")
            let invited = try await friend.get("/teams")
            #expect(invited.contains("Link Legends"))
            #expect(try await friend.get("/teams/\(slug)").contains("Accept invitation"), "an invitee may look at the private team")
            let inviteID = try #require(invited.firstMatch(#"action="/invites/([^/]+)/decline""#))
            try await friend.post("/invites/\(inviteID)/decline", [], csrfFrom: "/teams")
            #expect(try await friend.get("/teams/\(slug)").status == .notFound)

            let made = try await owner.post("/teams/\(slug)/invites", [("kind", "link")], csrfFrom: "/teams/\(slug)")
            #expect(made.status == .seeOther && made.location == "/teams/\(slug)#invite-links")
            let flash = try await owner.get("/teams/\(slug)")
            let token = try #require(flash.firstMatch(#"class="copy-field" value="[^"]*/join/([A-Za-z0-9_-]{43})""#))
            // The link stays on the team page for its managers until it is revoked.
            #expect(try await owner.get("/teams/\(slug)").contains("/join/\(token)"))
            let guest = app.browser()
            let preview = try await guest.get("/join/\(token)")
            #expect(preview.status == .ok)
            #expect(preview.main.contains("Join Link Legends"))
            let wrong = try await guest.get("/join/" + String(token.reversed()))
            #expect(wrong.status == .notFound)
            #expect(!wrong.contains("Link Legends"))

            try await friend.post("/join/\(token)", [], csrfFrom: "/join/\(token)")
            let asPlayer = try await friend.get("/teams/\(slug)")
            #expect(asPlayer.contains("You are Player in this team.") && !asPlayer.contains("/join/"), "players are not shown the link")

            let linkID = try #require(try await owner.get("/teams/\(slug)").firstMatch(#"/invites/([^/]+)/revoke"#))
            try await owner.post("/teams/\(slug)/invites/\(linkID)/revoke", [], csrfFrom: "/teams/\(slug)")
            #expect(try await guest.get("/join/\(token)").status == .notFound)
        }
    }

    @Test func theLastOwnerMustHandOverBeforeLeaving() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let leave = try await cast.owner.post("/teams/\(cast.slug)/leave", [], csrfFrom: "/teams/\(cast.slug)")
            #expect(leave.status == .conflict)
            #expect(leave.contains("only owner"))
            let demote = try await cast.owner.post("/teams/\(cast.slug)/members/owner_o/role", [("role", "player")], csrfFrom: "/teams/\(cast.slug)")
            #expect(demote.status == .conflict || demote.status == .notFound || demote.status == .seeOther)
            #expect(try await Membership.query(on: app.db).filter(\.$role == .owner).count() == 1)

            // A manager cannot make owners; an owner can, and then may leave.
            #expect(
                try await cast.manager.post("/teams/\(cast.slug)/members/player_p/role", [("role", "owner")], csrfFrom: "/teams/\(cast.slug)").status
                    == .forbidden)
            try await cast.owner.post("/teams/\(cast.slug)/members/manager_m/role", [("role", "owner")], csrfFrom: "/teams/\(cast.slug)")
            #expect(try await cast.manager.get("/notifications").contains("You are now an owner of Matrix United"))
            #expect(try await cast.owner.post("/teams/\(cast.slug)/leave", [], csrfFrom: "/teams/\(cast.slug)").status == .seeOther)
            #expect(try await cast.owner.get("/teams/\(cast.slug)").contains("Ask to join"))
        }
    }

    /// Who may do what, for every team route, on a protected and on a private team.
    @Test(arguments: ["protected", "private"])
    func roleByActionMatrix(privacy: String) async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: privacy)
            let slug = cast.slug
            let hidden = privacy == "private"
            let login = HTTPStatus.seeOther
            // Outsiders get 404 on a private team (it does not exist for them), 403 on a protected one.
            let outsider: HTTPStatus = hidden ? .notFound : .forbidden

            let page: [String: HTTPStatus] = [
                "anonymous": hidden ? .notFound : .ok, "stranger": hidden ? .notFound : .ok, "requester": hidden ? .notFound : .ok,
                "invitee": .ok, "player": .ok, "coach": .ok, "manager": .ok, "owner": .ok,
            ]
            let manage: [String: HTTPStatus] = [
                "anonymous": login, "stranger": outsider, "requester": outsider,
                "invitee": .forbidden, "player": .forbidden, "coach": .forbidden, "manager": .ok, "owner": .ok,
            ]
            for (name, browser) in cast.everyone {
                let form = name == "anonymous" ? "/login" : "/"
                #expect(try await browser.get("/teams/\(slug)").status == page[name]!, "\(name) GET team")
                #expect(try await browser.get("/teams/\(slug)/edit").status == manage[name]!, "\(name) GET edit")

                let posted = manage[name] == .ok ? HTTPStatus.seeOther : manage[name]!
                let edit = try await browser.post("/teams/\(slug)/edit", TeamCast.validEdit(privacy: privacy), csrfFrom: form)
                #expect(edit.status == posted, "\(name) POST edit")
                let invite = try await browser.post("/teams/\(slug)/invites", [("username", "stranger_s")], csrfFrom: form)
                #expect(invite.status == posted, "\(name) POST invite")
                let role = try await browser.post("/teams/\(slug)/members/player_p/role", [("role", "player")], csrfFrom: form)
                #expect(role.status == posted, "\(name) POST role")
                let delete = try await browser.get("/teams/\(slug)/delete")
                let deleteExpected: HTTPStatus = name == "owner" ? .ok : (name == "manager" ? .forbidden : manage[name]!)
                #expect(delete.status == deleteExpected, "\(name) GET delete")
                if name != "owner" {
                    let deletePost = try await browser.post("/teams/\(slug)/delete", [], csrfFrom: form)
                    #expect(deletePost.status == (deleteExpected == .ok ? .seeOther : deleteExpected), "\(name) POST delete")
                    let remove = try await browser.post("/teams/\(slug)/members/coach_c/remove", [], csrfFrom: form)
                    if name != "manager" { #expect(remove.status == manage[name]!, "\(name) POST remove") }
                }
            }
            #expect(try await Team.query(on: app.db).count() == 1, "nobody but the owner could delete")
            // The manager removed the coach (the last allowed attempt); the owner then deletes the team.
            #expect(
                try await Membership.query(on: app.db).join(User.self, on: \Membership.$user.$id == \User.$id).filter(User.self, \.$username == "coach_c")
                    .count() == 0)
            let gone = try await cast.owner.post("/teams/\(slug)/delete", [], csrfFrom: "/teams/\(slug)/delete")
            #expect(gone.status == .seeOther)
            #expect(try await Team.query(on: app.db).count() == 0)
            #expect(try await Membership.query(on: app.db).count() == 0)
            #expect(try await JoinRequest.query(on: app.db).count() == 0)
        }
    }
}
