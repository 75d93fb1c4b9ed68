@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// Every route the app registers, classified. A route missing from `access` fails the test, so a new
/// route cannot ship without someone deciding who may use it. Each route is then requested with real
/// private objects (a private team and its game, a private workout with a route, a private challenge
/// and its photo files, a private profile, an export) by anonymous visitors and, for the routes that
/// show such an object, by every persona, and the answers are checked against who may see it.
@Suite struct RouteMatrixTests {
    enum Access {
        /// Anyone, signed in or not (sign-in, public pages, feeds whose key is in the URL).
        case anyone
        /// Needs a signed-in person; what it shows is theirs.
        case signedIn
        /// The API: a device token is required.
        case device
        /// Shows or changes one object; `personas` below lists who may see it.
        case object
        /// For whoever runs the server: a direct connection from this machine, or the metrics token.
        case operations
    }

    /// Who may use each route: exhaustive, in the order the routes are listed by `app.routes.all`.
    static let access: [String: Access] = {
        var table: [String: Access] = [:]
        for route in [
            "GET /", "GET /api/v1/openapi.json", "GET /developers", "GET /healthz", "GET /login", "POST /login", "GET /signup", "POST /signup",
            "GET /find", "GET /api/v1/find", "GET /learn", "GET /learn/:slug", "GET /leagues",
            "GET /calendar/:file", "GET /join/:token", "GET /team-invitations/:token", "GET /challenges/public", "GET /people", "GET /games", "GET /teams",
            "POST /logout",
            // E-mail links: the secret in the address is the key; a made-up one opens nothing.
            "GET /password/forgot", "POST /password/forgot", "GET /password/reset/:token", "POST /password/reset/:token",
            "GET /email/confirm/:user/:token", "POST /email/confirm/:user/:token", "GET /email/unsubscribe/:user/:topic/:token",
            "POST /email/unsubscribe/:user/:topic/:token",
            // Places are public, as are the routes their owners chose to share (listed, not opened here).
            "GET /places", "GET /places/:id", "GET /routes",
            // The footer's language switch: a cookie and a way back.
            "GET /language/:code",
            // Map tiles: the same for everyone, and about no one.
            "GET /tiles/:z/:x/:file",
            // Place names as typed: public places and towns, and only the searcher's own home area.
            "GET /places/search",
        ] {
            table[route] = .anyone
        }
        for route in [
            "GET /teams/:slug", "GET /teams/:slug/edit", "GET /teams/:slug/delete", "GET /teams/:slug/games/new",
            "GET /games/:id", "GET /games/:id/edit", "GET /leagues/:slug", "GET /leagues/:slug/schedule", "GET /workouts/:id", "GET /workouts/:id/edit",
            "GET /workouts/:id/kudos",
            "GET /challenges/:id", "GET /photos/:id", "GET /photos/:id/:size", "GET /photos/held/:key", "GET /u/:username", "GET /u/:username/avatar",
            "GET /u/:username/followers", "GET /u/:username/following", "GET /coach/athletes/:username", "GET /plans/:id",
            "GET /coach/athletes/:username/zones", "GET /settings/export/download", "GET /routes/:id",
            "GET /places/:id/edit", "GET /places/:id/reward", "GET /places/:id/redeem", "GET /live/:id", "GET /live/:id/events",
            "GET /messages/:id", "GET /messages/:id/events", "GET /messages/:id/m/:message/edit",
        ] {
            table[route] = .object
        }
        table["GET /metrics"] = .operations
        for route in [
            "GET /api/v1/workouts", "GET /api/v1/workouts/:id", "GET /api/v1/workouts/:id/streams", "POST /api/v1/heart-rate/ble",
            "POST /api/v1/samples", "POST /api/v1/uploads", "POST /api/v1/workouts", "POST /api/v1/workouts/:id/finish",
            "POST /api/v1/checkins", "POST /api/v1/workouts/:id/live", "DELETE /api/v1/workouts/:id",
            "GET /api/v1/checkins/offer",
        ] {
            table[route] = .device
        }
        return table
    }()

    /// Routes not listed above need a signed-in person (every other page and form).
    static func classify(_ route: String) -> Access { access[route] ?? .signedIn }

    /// Routes that are `signedIn` by `classify`'s default, listed so that a new route is a decision:
    /// adding a route to the app without adding it here (or to `access`) fails the test.
    static let signedInRoutes: Set<String> = [
        "GET /admin/jobs", "POST /admin/jobs/:id/retry", "GET /challenges", "GET /challenges/new", "GET /challenges/scoreboard", "GET /coach",
        "GET /coach/week", "GET /feed", "GET /friends", "GET /plans/new", "POST /plans/new", "POST /plans/:id/in", "POST /plans/:id/cancel", "GET /leaderboard",
        "GET /badges",
        "GET /gifts/new", "POST /gifts/new", "GET /comments", "POST /comments", "POST /comments/:id/delete", "GET /friends/nearby",
        "POST /friends/nearby/settings", "POST /friends/nearby/here", "POST /friends/nearby/stop",
        "GET /games/new", "GET /goals", "GET /heart-rate", "GET /leagues/new", "GET /learn/:slug/compare", "GET /learn/:slug/edit",
        "GET /learn/:slug/revisions", "GET /learn/new", "GET /learn/:slug/translation/:language", "POST /learn/:slug/translation/:language",
        "GET /notifications", "GET /reminders", "GET /reminders/:id/delete", "GET /reminders/:id/edit", "GET /settings",
        "GET /settings/avatar", "GET /settings/calendar", "GET /settings/coaches", "GET /settings/delete-account", "GET /settings/devices",
        "GET /settings/notifications", "POST /settings/notifications", "POST /settings/email/confirm",
        "POST /settings/notifications/push", "POST /settings/notifications/push/stop",
        "GET /settings/export", "GET /settings/password", "GET /settings/privacy", "GET /settings/privacy-zones", "GET /settings/profile",
        "GET /settings/reset-workouts", "GET /settings/zones", "GET /stats", "GET /teams/new", "GET /workouts",
        "GET /workouts/:id/comments/:comment/edit", "GET /workouts/import", "GET /workouts/new",
        "POST /challenges/:id/delete", "POST /challenges/:id/responses", "POST /challenges/:id/responses/:rid/accept",
        "POST /challenges/:id/responses/:rid/reject", "POST /challenges/new", "POST /coach/athletes/:username/plans",
        "POST /coach/athletes/:username/plans/:id/delete", "POST /coach/athletes/:username/stop", "POST /coach/athletes/:username/zones",
        "POST /coach/invite", "POST /coach/requests/:id/accept", "POST /coach/requests/:id/decline", "POST /coach/team-request",
        "POST /friends/requests/:username/approve", "POST /friends/requests/:username/decline", "POST /games/:id/cancel",
        "POST /games/:id/edit", "POST /games/:id/invites", "POST /games/:id/join", "POST /games/:id/leave", "POST /games/:id/offer/take",
        "POST /games/:id/players/:username/approve",
        "POST /games/:id/players/:username/remove", "POST /games/:id/remind", "POST /games/:id/result", "POST /games/:id/result/confirm",
        "POST /games/:id/rsvp",
        "POST /games/:id/subs", "POST /games/:id/subs/claim", "POST /games/:id/subs/close", "POST /games/new", "POST /goals",
        "POST /goals/:id/delete", "POST /goals/:id/toggle", "POST /invites/:id/accept", "POST /invites/:id/decline", "POST /join/:token",
        "POST /leagues/:slug/teams", "POST /leagues/:slug/teams/:team/accept", "POST /leagues/:slug/teams/:team/decline",
        "POST /leagues/:slug/teams/:team/remove", "POST /leagues/:slug/schedule", "POST /leagues/new", "POST /learn/:slug/edit", "POST /learn/:slug/unpublish",
        "POST /learn/new", "POST /learn/preview", "POST /notifications/read", "POST /reminders", "POST /reminders/:id/delete",
        "POST /reminders/:id/edit", "POST /reminders/:id/toggle", "POST /settings/avatar", "POST /settings/avatar/remove",
        "POST /settings/calendar/reset", "POST /settings/coaches", "POST /settings/coaches/:id/accept", "POST /settings/coaches/:id/decline",
        "POST /settings/coaches/:id/revoke", "POST /settings/delete-account", "POST /settings/devices", "POST /settings/devices/:id/revoke",
        "POST /settings/export", "POST /settings/password", "POST /settings/privacy", "POST /settings/privacy-zones",
        "POST /settings/privacy-zones/:id/delete", "POST /settings/profile", "POST /settings/reset-workouts", "POST /settings/zones",
        "POST /teams/:slug/delete", "POST /teams/:slug/edit", "POST /teams/:slug/games/new", "POST /teams/:slug/invites", "POST /teams/:slug/email-invites",
        "POST /teams/:slug/email-invites/:id/cancel", "POST /team-invitations/:token",
        "POST /teams/:slug/invites/:id/revoke", "POST /teams/:slug/join", "POST /teams/:slug/leave", "POST /teams/:slug/members/:username/remove",
        "POST /teams/:slug/members/:username/role", "POST /teams/:slug/requests/:id/approve", "POST /teams/:slug/requests/:id/decline",
        "POST /teams/new", "POST /u/:username/follow", "POST /u/:username/unfollow", "POST /workouts/:id/comments",
        "POST /workouts/:id/comments/:comment/delete", "POST /workouts/:id/comments/:comment/edit", "POST /workouts/:id/delete",
        "POST /workouts/:id/edit", "POST /workouts/:id/kudos", "POST /workouts/import", "POST /workouts/new",
        "GET /places/new", "POST /places/new", "POST /places/:id/manage/accept", "POST /places/:id/manage/decline", "POST /places/:id/edit",
        "POST /places/:id/reward", "POST /places/:id/checkin",
        "POST /places/:id/redeem", "GET /rewards", "POST /rewards/settings", "POST /places/:id/photos", "POST /places/:id/photos/:photo/delete",
        "POST /routes/:id", "POST /routes/:id/delete", "POST /workouts/:id/route",
        "GET /record", "POST /record/device",
        // The doors into a conversation only lead on to it (`GET /messages/:id` decides who is in).
        "GET /messages", "GET /teams/:slug/messages", "GET /games/:id/messages", "GET /plans/:id/messages", "GET /u/:username/message", "POST /messages/:id",
        "POST /messages/:id/mute",
        "POST /messages/:id/m/:message/edit", "POST /messages/:id/m/:message/delete", "POST /messages/:id/m/:message/report",
        "POST /messages/:id/m/:message/hide", "POST /messages/:id/m/:message/block", "POST /u/:username/block", "POST /u/:username/unblock",
        "GET /admin/reports", "POST /admin/reports/:id/hide", "POST /admin/reports/:id/dismiss",
    ]

    /// The personas and the private objects they stand around.
    struct World {
        let people: [(String, Browser)]
        let team: String
        let game: String
        let workout: String
        let challenge: String
        let photo: String
        /// A photo Ana chose in a challenge form she must fix (kept for her next try).
        let heldPhoto: String
        /// A 13-year-old's workout with a route, stored as public, shown to her followers only.
        let teenWorkout: String
        /// A private league the private team plays in.
        let league: String
        /// Ana's plan for her friends.
        let plan: String
        /// Ana's private route (her workout's path, kept).
        let route: String
        /// A café Olga manages, with a reward.
        let place: String
        /// Ana recording now, shared live with her coaches.
        let live: String
        /// Tia recording now, shared live with Tom alone.
        let teenLive: String
        /// The private team's conversation, and Pia's message in it.
        let teamTalk: String
        let teamMessage: String
        /// Tia and Tom's direct messages.
        let teenTalk: String
    }

    /// A recording started over the API now and shared live with `share` (the request's JSON).
    static func recordLive(_ browser: Browser, share: String) async throws -> String {
        let token = try await browser.deviceToken(named: "Recorder")
        let start = browser.app.clock.milliseconds - 600_000
        let made = try await browser.api(
            .POST, "/api/v1/workouts", token: token, json: #"{"external_id": "live-1", "sport": "running", "start": \#(start)}"#)
        let id = try #require((made.json["workout"] as? [String: Any])?["id"] as? String)
        let point = #"{"locations": [{"t": \#(start + 1000), "lat": 55.69, "lon": 12.58}], "heart_rate": [{"t": \#(start + 1000), "bpm": 140}]}"#
        #expect(try await browser.api(.POST, "/api/v1/samples", token: token, json: point).status == .created)
        #expect(try await browser.api(.POST, "/api/v1/workouts/\(id)/live", token: token, json: share).status == .ok)
        return "/live/\(id)"
    }

    /// A workout with a 60-point route, made over the API the way a phone makes one.
    static func recordWorkout(_ browser: Browser, latitude: Double, points count: Int = 60) async throws {
        let token = try await browser.deviceToken()
        let start = browser.app.clock.milliseconds - 7_200_000
        let points = (0..<count).map { #"{"t": \#(start + Int64($0) * 1000), "lat": \#(latitude + Double($0) * 0.0001), "lon": 12.57}"# }.joined(separator: ",")
        #expect(try await browser.api(.POST, "/api/v1/samples", token: token, json: #"{"locations": [\#(points)]}"#).status == .created)
        let made = try await browser.api(
            .POST, "/api/v1/workouts", token: token,
            json: #"{"external_id": "m1", "sport": "running", "start": \#(start), "end": \#(start + Int64(count - 1) * 1000)}"#)
        #expect(made.status == .created)
    }

    static func makeWorld(_ app: TestApp) async throws -> World {
        // A private team: owner Olga, manager Mads, coach Cleo, player Pia; Rui asked to join.
        let cast = try await TeamCast.make(app, privacy: "private")
        let game = try await cast.manager.createTeamGame(team: cast.slug)
        // Ana: a profile for followers only, a private workout with a route, a private challenge to Ben.
        let ana = app.browser(); try await ana.signUp("ana_a", name: "Ana Athlete")
        let ben = app.browser(); try await ben.signUp("ben_b", name: "Ben Friend")
        let follower = app.browser(); try await follower.signUp("fay_f", name: "Fay Follower")
        let coach = app.browser(); try await coach.signUp("kai_k", name: "Kai Coach")
        let exCoach = app.browser(); try await exCoach.signUp("lou_l", name: "Lou Former")
        try await ana.befriend(ben, "ben_b", me: "ana_a")
        try await follower.post("/u/ana_a/follow", [], csrfFrom: "/u/ana_a")
        try await ana.getsCoached(by: coach)
        try await ana.getsCoached(by: exCoach)
        let louID = try #require(try await User.query(on: app.db).filter(\.$username == "lou_l").first()?.requireID())
        let lou = try #require(try await CoachGrant.query(on: app.db).filter(\.$coach.$id == louID).first())
        try await ana.post("/settings/coaches/\(try lou.requireID().uuidString.lowercased())/revoke", [], csrfFrom: "/settings/coaches")
        try await ana.post("/settings/privacy", [("visibility", "private")], csrfFrom: "/settings/privacy")
        try await ana.upload(
            "/settings/avatar", field: "avatar", filename: "me.jpg", contentType: "image/jpeg",
            data: try fixturePhoto("rotated_gps.jpg"), csrfFrom: "/settings/avatar")

        try await recordWorkout(ana, latitude: 55.68)
        try await Workout.query(on: app.db).set(\.$visibility, to: .private).update()
        let workout = try #require(try await Workout.query(on: app.db).first()?.requireID().uuidString.lowercased())

        // Rex played in the team until a manager removed him.
        let rex = app.browser(); try await rex.signUp("rex_r", name: "Rex Removed")
        try await cast.owner.post("/teams/\(cast.slug)/invites", [("username", "rex_r")], csrfFrom: "/teams/\(cast.slug)")
        let invite = try #require(try await rex.get("/teams").firstMatch(#"action="/invites/([^/]+)/accept""#))
        try await rex.post("/invites/\(invite)/accept", [], csrfFrom: "/teams")
        #expect(try await rex.get(game).status == .ok)
        try await cast.manager.post("/teams/\(cast.slug)/members/rex_r/remove", [], csrfFrom: "/teams/\(cast.slug)")
        // The site's editor and admin have no view of private things.
        let editor = app.browser(); try await editor.signUp("eda_e", name: "Eda Editor")
        let admin = app.browser(); try await admin.signUp("adam_a", name: "Adam Admin")
        try await User.query(on: app.db).filter(\.$username == "eda_e").set(\.$role, to: .editor).update()
        try await User.query(on: app.db).filter(\.$username == "adam_a").set(\.$role, to: .admin).update()
        // Tia is 13: her profile and her workout are for her followers, and Tom is her friend.
        let teen = app.browser(); try await teen.signUp("tia_t", name: "Tia Teen", birthDate: "2013-02-01")
        let teenFriend = app.browser(); try await teenFriend.signUp("tom_t", name: "Tom Teen", birthDate: "2012-06-01")
        // They play in Kai's youth squad, which let them in; until then neither could find the other.
        #expect(try await teenFriend.get("/u/tia_t").status == .notFound)
        let squad = try await coach.createTeam("Youth Squad")
        for child in [teen, teenFriend] {
            try await child.post("/teams/\(squad)/join", [("message", "")], csrfFrom: "/teams/\(squad)")
            let request = try #require(
                try await JoinRequest.query(on: app.db).join(Team.self, on: \JoinRequest.$team.$id == \Team.$id)
                    .filter(Team.self, \.$slug == squad).first())
            try await coach.post("/teams/\(squad)/requests/\(try request.requireID().uuidString.lowercased())/approve", [], csrfFrom: "/teams/\(squad)")
        }
        try await teen.post("/u/tom_t/follow", [], csrfFrom: "/u/tom_t")
        try await teenFriend.post("/friends/requests/tia_t/approve", [], csrfFrom: "/friends")
        try await teenFriend.post("/u/tia_t/follow", [], csrfFrom: "/u/tia_t")
        try await teen.post("/friends/requests/tom_t/approve", [], csrfFrom: "/friends")
        try await recordWorkout(teen, latitude: 55.70)
        let tiaID = try #require(try await User.query(on: app.db).filter(\.$username == "tia_t").first()?.requireID())
        let tiaWorkout = try #require(try await Workout.query(on: app.db).filter(\.$user.$id == tiaID).first())
        // Stored as public (as an older form allowed): she is under 16 and it has a route, so it
        // reaches her followers at most, for every reader.
        tiaWorkout.visibility = .public
        try await tiaWorkout.update(on: app.db)

        // A private league run by Olga, with her private team in it (she manages both, so it joins at
        // once): only its manager and the team see it.
        let madeLeague = try await cast.owner.post(
            "/leagues/new",
            [("name", "Matrix League"), ("sport", "futsal"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", "private")],
            csrfFrom: "/leagues/new")
        let league = try #require(madeLeague.location)
        #expect(try await cast.owner.post(league + "/teams", [("team", cast.slug)], csrfFrom: league).status == .seeOther)
        // A second team of hers, so the league has a season to schedule.
        let reserves = try await cast.owner.createTeam("Matrix Reserves", privacy: "private")
        #expect(try await cast.owner.post(league + "/teams", [("team", reserves)], csrfFrom: league).status == .seeOther)

        let challenge = try #require(try await ana.sendChallenge(to: ["ben_b"]).location)
        let photo = try #require(try await Challenge.query(on: app.db).first()?.$photo.id.uuidString.lowercased())
        let heldPhoto = try #require(
            try await ana.sendChallenge(to: ["ben_b"], caption: "").firstMatch(#"src="(/photos/held/[A-Za-z0-9_-]{43})""#))
        let when = app.gameDay(2)
        let plan = try #require(
            try await ana.post(
                "/plans/new",
                [
                    ("text", "Lake run, who's in?"), ("sport", "running"), ("day", when.day), ("time", "18:00"), ("duration_minutes", "60"),
                    ("capacity", "8"), ("audience", "friends"),
                ], csrfFrom: "/plans/new"
            ).location)
        let route = try #require(try await ana.post("/workouts/\(workout)/route", [], csrfFrom: "/workouts/\(workout)").location)
        let place = try #require(
            try await admin.post(
                "/places/new",
                [
                    ("name", "Matrix Café"), ("kind", "cafe"), ("latitude", "55.68"), ("longitude", "12.57"), ("radius_m", "80"),
                    ("time_zone", "UTC"), ("managers", "owner_o, manager_m"),
                ], csrfFrom: "/places/new"
            ).location)
        // Managing a place is an invitation: Olga says yes; Mads has not answered yet.
        #expect(try await cast.owner.post(place + "/manage/accept", [], csrfFrom: place).status == .seeOther)
        #expect(
            try await cast.owner.post(place + "/reward", [("reward_text", "Free tea by bike"), ("daily_cap", "5")], csrfFrom: place + "/reward").status
                == .seeOther)
        let live = try await recordLive(ana, share: #"{"audience": "coaches"}"#)
        let teenLive = try await recordLive(teen, share: #"{"audience": "people", "people": ["tom_t"]}"#)
        let teamTalk = try #require(try await cast.player.get("/teams/\(cast.slug)/messages").location)
        let said = try await cast.player.post(teamTalk, [("body", "Who has the bibs?")], csrfFrom: teamTalk)
        let teamMessage = teamTalk + "/m/" + (try #require(said.location?.split(separator: "#m-").last))
        let teenTalk = try #require(try await teen.get("/u/tom_t/message").location, "Tia and Tom follow each other and share a squad")
        #expect(try await teen.post(teenTalk, [("body", "See you at practice")], csrfFrom: teenTalk).status == .seeOther)
        await app.app.photoSizer.idle()
        _ = try await ana.post("/settings/export", [], csrfFrom: "/settings/export")
        try await app.app.jobs.runDue(app.app)

        return World(
            people: [
                ("anonymous", app.browser()), ("stranger", cast.stranger), ("requester", cast.requester), ("invitee", cast.invitee),
                ("player", cast.player), ("teamCoach", cast.coach), ("manager", cast.manager), ("owner", cast.owner),
                ("ana", ana), ("friend", ben), ("follower", follower), ("coach", coach), ("exCoach", exCoach),
                ("removed", rex), ("editor", editor), ("admin", admin), ("teen", teen), ("teenFriend", teenFriend),
            ],
            team: cast.slug, game: game, workout: "/workouts/\(workout)", challenge: challenge, photo: "/photos/\(photo)", heldPhoto: heldPhoto,
            teenWorkout: "/workouts/\(try tiaWorkout.requireID().uuidString.lowercased())", league: league, plan: plan, route: route, place: place,
            live: live, teenLive: teenLive, teamTalk: teamTalk, teamMessage: String(teamMessage), teenTalk: teenTalk
        )
    }

    /// The concrete paths each object route is tried at, with the personas that must get 200.
    static func objectPaths(_ world: World) -> [(route: String, path: String, allowed: Set<String>)] {
        let team: Set<String> = ["player", "teamCoach", "manager", "owner"]
        // Someone a manager invited may look at the team before answering, not at its games.
        let teamPage = team.union(["invitee"])
        let managers: Set<String> = ["manager", "owner"]
        let ana: Set<String> = ["ana"]
        let workout: Set<String> = ["ana", "coach"]
        let challenge: Set<String> = ["ana", "friend"]
        let profile: Set<String> = ["ana", "follower", "friend"]
        let teen: Set<String> = ["teen", "teenFriend"]
        return [
            ("GET /teams/:slug", "/teams/\(world.team)", teamPage),
            ("GET /teams/:slug/edit", "/teams/\(world.team)/edit", managers),
            ("GET /teams/:slug/delete", "/teams/\(world.team)/delete", ["owner"]),
            ("GET /teams/:slug/games/new", "/teams/\(world.team)/games/new", managers),
            ("GET /games/:id", world.game, team),
            ("GET /games/:id/edit", world.game + "/edit", managers),
            ("GET /workouts/:id", world.workout, workout),
            ("GET /workouts/:id", world.workout + ".gpx", workout),
            ("GET /workouts/:id", world.workout + ".csv", workout),
            ("GET /workouts/:id/edit", world.workout + "/edit", ana),
            ("GET /workouts/:id/kudos", world.workout + "/kudos", workout),
            ("GET /leagues/:slug", world.league, team),
            // Only the league's manager schedules its season.
            ("GET /leagues/:slug/schedule", world.league + "/schedule", ["owner"]),
            ("GET /challenges/:id", world.challenge, challenge),
            ("GET /plans/:id", world.plan, challenge),
            ("GET /photos/:id", world.photo, challenge),
            ("GET /photos/:id/:size", world.photo + "/small", challenge),
            ("GET /photos/:id/:size", world.photo + "/large", challenge),
            ("GET /photos/held/:key", world.heldPhoto, ana),
            ("GET /u/:username", "/u/ana_a", profile),
            ("GET /u/:username/avatar", "/u/ana_a/avatar", profile),
            ("GET /u/:username/followers", "/u/ana_a/followers", profile),
            ("GET /u/:username/following", "/u/ana_a/following", profile),
            ("GET /coach/athletes/:username", "/coach/athletes/ana_a", ["coach"]),
            ("GET /coach/athletes/:username/zones", "/coach/athletes/ana_a/zones", ["coach"]),
            ("GET /settings/export/download", "/settings/export/download", ana),
            // Kai runs her squad, so he may know she exists (the page says no more), not see her followers.
            ("GET /u/:username", "/u/tia_t", teen.union(["coach"])),
            ("GET /u/:username/followers", "/u/tia_t/followers", teen),
            ("GET /workouts/:id", world.teenWorkout, teen),
            // Her friend may look at the map, not take the file: downloads are the owner's and her coaches'.
            ("GET /workouts/:id", world.teenWorkout + ".gpx", ["teen"]),
            ("GET /workouts/:id", world.teenWorkout + ".csv", ["teen"]),
            ("GET /routes/:id", world.route, ana),
            ("GET /routes/:id", world.route + ".gpx", ana),
            // A place's managers (and the server's admins) run it; its counter is nobody else's business.
            ("GET /places/:id/edit", world.place + "/edit", ["owner", "admin"]),
            ("GET /places/:id/reward", world.place + "/reward", ["owner", "admin"]),
            ("GET /places/:id/redeem", world.place + "/redeem", ["owner", "admin"]),
            // A recording shared live reaches the audience chosen for it: Ana's coach (not the one she
            // dropped), and of Tia's friends only Tom, whom she picked.
            ("GET /live/:id", world.live, ["ana", "coach"]),
            ("GET /live/:id/events", world.live + "/events", ["ana", "coach"]),
            ("GET /live/:id", world.teenLive, ["teen", "teenFriend"]),
            ("GET /live/:id/events", world.teenLive + "/events", ["teen", "teenFriend"]),
            // A conversation is its team's: Rex, removed, and Ines, only invited, are out of it.
            ("GET /messages/:id", world.teamTalk, team),
            ("GET /messages/:id/events", world.teamTalk + "/events", team),
            ("GET /messages/:id/m/:message/edit", world.teamMessage + "/edit", ["player"]),
            ("GET /messages/:id", world.teenTalk, teen),
            ("GET /messages/:id/events", world.teenTalk + "/events", teen),
        ]
    }

    /// Forms that change one of the private objects, with who may send them. Everybody else's
    /// attempt is refused and changes nothing at all in the database. Forms that end something
    /// (deleting, cancelling) come last, as the allowed person then sends each for real.
    static func objectForms(_ world: World, app: TestApp) -> [(path: String, fields: [(String, String)], allowed: Set<String>)] {
        let managers: Set<String> = ["manager", "owner"]
        let team = "/teams/\(world.team)", game = world.game
        let gameForm: [(String, String)] = [
            ("day", app.gameDay(5).day), ("time", "19:00"), ("time_zone", "UTC"), ("duration_minutes", "60"),
            ("place_name", "Hijack Hall"), ("latitude", "55.6"), ("longitude", "12.5"), ("opponent", "Nobody"),
        ]
        let workoutForm: [(String, String)] = [("name", "Hijacked run"), ("sport", "running"), ("visibility", "public")]
        let plan: [(String, String)] = [("day", app.gameDay(2).day), ("sport", "running"), ("duration", "30"), ("description", "Hijacked")]
        return [
            (team + "/edit", TeamCast.validEdit(privacy: "public").map { $0.0 == "name" ? ($0.0, "Hijacked United") : $0 }, managers),
            (team + "/invites", [("username", "stranger_s")], managers),
            (team + "/email-invites", [("email", "someone.new@example.org")], managers),
            (team + "/members/coach_c/role", [("role", "player")], managers),
            (team + "/games/new", gameForm, managers),
            (game + "/edit", gameForm, managers),
            (game + "/rsvp", [("status", "going")], ["player", "teamCoach", "manager", "owner"]),
            (game + "/remind", [], managers),
            (
                world.league + "/schedule",
                [
                    ("legs", "single"), ("first_day", app.gameDay(8).day), ("weekday", String(CalendarDate(iso: app.gameDay(8).day)!.weekday)),
                    ("time", "19:00"), ("duration_minutes", "90"), ("time_zone", "UTC"),
                ],
                ["owner"]
            ),
            (world.workout + "/edit", workoutForm, ["ana"]),
            (world.workout + "/comments", [("body", "Nice route, where is it?")], ["ana", "coach"]),
            // Everyone who sees her workout (her friend) writes under it; nobody else.
            (world.teenWorkout + "/comments", [("body", "Where do you live?")], ["teen", "teenFriend"]),
            (world.plan + "/in", [], ["friend"]),
            (world.route, [("name", "Hijacked route"), ("visibility", "public")], ["ana"]),
            (world.workout + "/route", [], ["ana"]),
            // Only the person asked answers an invitation to manage; until then it gives no rights (before the edit
            // below names Olga alone).
            (world.place + "/manage/accept", [], ["manager"]),
            (
                world.place + "/edit",
                [
                    ("name", "Hijacked Café"), ("kind", "cafe"), ("latitude", "55.6"), ("longitude", "12.5"), ("radius_m", "80"), ("time_zone", "UTC"),
                    ("managers", "owner_o"),
                ],
                ["owner", "admin"]
            ),
            (world.place + "/reward", [("reward_text", "Everything free"), ("daily_cap", "1000")], ["owner", "admin"]),
            (world.teamTalk, [("body", "Hijacked")], ["player", "teamCoach", "manager", "owner"]),
            (world.teamTalk + "/mute", [("muted", "1")], ["player", "teamCoach", "manager", "owner"]),
            (world.teamMessage + "/edit", [("body", "Hijacked")], ["player"]),
            (world.teamMessage + "/report", [("reason", "spam")], ["teamCoach", "manager", "owner"]),
            (world.teamMessage + "/hide", [], ["manager", "owner"]),
            (world.teenTalk, [("body", "Where do you live?")], ["teen", "teenFriend"]),
            (world.plan + "/cancel", [("confirm", "yes")], ["ana"]),
            ("/coach/athletes/ana_a/plans", plan, ["coach"]),
            (
                "/coach/athletes/ana_a/zones",
                [
                    ("max_hr", "150"), ("resting_hr", "50"), ("basis", "max"), ("zone1", "50"), ("zone2", "60"),
                    ("zone3", "70"), ("zone4", "80"), ("zone5", "90"),
                ], ["coach"]
            ),
            // Anyone who reads a message may block its author, whom they may not otherwise see.
            (world.teamMessage + "/block", [], ["teamCoach", "manager", "owner"]),
            (world.teamMessage + "/delete", [], ["player", "manager", "owner"]),
            (team + "/members/player_p/remove", [], managers),
            (game + "/cancel", [("confirm", "yes")], managers),
            (world.challenge + "/delete", [("confirm", "yes")], ["ana"]),
            (world.route + "/delete", [], ["ana"]),
            (world.workout + "/delete", [], ["ana"]),
            (team + "/delete", [], ["owner"]),
        ]
    }

    @Test func everyRouteIsClassifiedAndAnswersOnlyThoseAllowed() async throws {
        // With a mail server: some forms (an invitation by e-mail) exist only where mail is sent.
        try await withMailApp { app, _ in
            let registered = Set(app.app.routes.all.map { "\($0.method.rawValue) /" + $0.path.map { "\($0)" }.joined(separator: "/") })
            let classified = Set(Self.access.keys).union(Self.signedInRoutes)
            #expect(registered.subtracting(classified).sorted() == [], "routes nobody has classified")
            #expect(classified.subtracting(registered).sorted() == [], "classified routes that no longer exist")
            #expect(Set(Self.access.keys).intersection(Self.signedInRoutes).isEmpty)
            #expect(registered.count > 200, "only \(registered.count) routes are registered")

            let world = try await Self.makeWorld(app)
            let anonymous = world.people[0].1
            let id = { (path: String) in String(path.split(separator: "/").last ?? "") }

            // Anonymous visitors: signed-in routes send them to sign in (pages) or are refused (forms);
            // the API wants a token; nothing ever fails with a 5xx.
            for route in registered.sorted() {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = String(parts[0]), pattern = String(parts[1])
                let path = Self.fill(pattern, world: world)
                // Forms are sent with a valid CSRF token (the sign-in page gives one to anybody), so the
                // answer is the route's own, not the CSRF check's.
                let page =
                    switch method {
                    case "GET": try await anonymous.get(path)
                    case "POST": try await anonymous.post(path, [], csrfFrom: "/login")
                    default: try await anonymous.send(HTTPMethod(rawValue: method), path, headers: [:], body: nil)
                    }
                #expect(page.status.code < 500, "\(route) at \(path): \(page.status)")
                switch Self.classify(route) {
                case .anyone:
                    // Public lists and searches never show the private objects.
                    if method == "GET" {
                        for secret in [world.team, "Matrix United", "Matrix League", id(world.workout), id(world.challenge), id(world.game), "Ana Athlete"] {
                            #expect(!page.body.contains(secret), "\(route) at \(path) shows \(secret) to a visitor signed out")
                        }
                    }
                case .signedIn:
                    // `/settings` sends on to its first tab, which then asks for sign-in.
                    var page = page
                    if page.status == .seeOther, let next = page.location, next.hasPrefix("/"), !next.hasPrefix("/login") {
                        page = try await anonymous.get(next)
                    }
                    let toLogin = page.status == .seeOther && page.location?.hasPrefix("/login") == true
                    #expect(toLogin || [401, 403, 404].contains(page.status.code), "\(route) answered \(page.status) to a stranger signed out")
                case .device:
                    #expect([401, 403].contains(page.status.code), "\(route) answered \(page.status) without a token")
                case .object:
                    break // below, with every persona
                case .operations:
                    // The test talks to the server from this machine: through a proxy, it is nobody's.
                    #expect(page.status == .ok, "\(route) answered \(page.status) on this machine")
                    let proxied = try await anonymous.get(path, headers: ["X-Forwarded-For": "203.0.113.9"])
                    #expect(proxied.status == .notFound, "\(route) answered \(proxied.status) through a proxy")
                }
            }

            // Every object route, for every persona: 200 exactly for those allowed, and for nobody
            // else anything that shows the object (no 200, no 5xx).
            let covered = Set(Self.objectPaths(world).map(\.route))
            #expect(covered == Set(Self.access.filter { $0.value == .object }.map(\.key)), "an object route without persona expectations")
            #expect(Self.objectPaths(world).count > 20 && world.people.count > 5)
            for (route, path, allowed) in Self.objectPaths(world) {
                for (name, browser) in world.people {
                    // An event stream stays open: its answer is read as far as its status.
                    let status = path.hasSuffix("/events") ? try await EventStream.status(browser, path) : try await browser.get(path).status
                    if allowed.contains(name) {
                        #expect(status == .ok, "\(name) should see \(path) (\(route)) but got \(status)")
                    } else {
                        #expect(status != .ok && status.code < 500, "\(name) must not see \(path) (\(route)) but got \(status)")
                    }
                }
            }

            // Every form that changes a private object, from everybody not allowed to send it: refused,
            // and the database is exactly as before (not one row written, notifications included).
            let before = try await app.dump(except: ["sessions"])
            #expect(Self.objectForms(world, app: app).count > 10 && before.count > 30)
            for (path, fields, allowed) in Self.objectForms(world, app: app) {
                for (name, browser) in world.people where !allowed.contains(name) {
                    let page = try await browser.post(path, fields, csrfFrom: name == "anonymous" ? "/login" : "/settings/profile")
                    let refused =
                        name == "anonymous"
                        ? page.status == .seeOther && page.location?.hasPrefix("/login") == true || page.status == .unauthorized
                        : [403, 404].contains(page.status.code)
                    #expect(refused, "\(name) sent \(path) and got \(page.status) \(page.location ?? "")")
                }
            }
            let after = try await app.dump(except: ["sessions"])
            for table in before.keys.sorted() where before[table] != after[table] {
                Issue.record("a refused form changed \(table): \(Set(after[table] ?? []).symmetricDifference(before[table] ?? []).sorted())")
            }
            // The people allowed get through: the forms are real, not refused for another reason.
            for (path, fields, allowed) in Self.objectForms(world, app: app) {
                let name = try #require(allowed.sorted().first)
                let browser = try #require(world.people.first { $0.0 == name }?.1)
                let page = try await browser.post(path, fields, csrfFrom: "/settings/profile")
                #expect(page.status == .seeOther, "\(name) sent \(path) and got \(page.status): \(page.body.prefix(300))")
            }
        }
    }

    /// A concrete path for a route pattern, using the private objects where the pattern names them.
    static func fill(_ pattern: String, world: World) -> String {
        let id = { (path: String) in String(path.split(separator: "/").last ?? "") }
        let random = UUID().uuidString.lowercased()
        var parts: [String] = []
        let segments = pattern.split(separator: "/").map(String.init)
        for (index, segment) in segments.enumerated() {
            guard segment.hasPrefix(":") else { parts.append(segment); continue }
            let owner = index > 0 ? segments[index - 1] : ""
            switch (owner, segment) {
            case ("teams", ":slug"): parts.append(world.team)
            case ("games", ":id"): parts.append(id(world.game))
            case ("workouts", ":id"): parts.append(id(world.workout))
            case ("challenges", ":id"): parts.append(id(world.challenge))
            case ("photos", ":id"): parts.append(id(world.photo))
            case ("routes", ":id"): parts.append(id(world.route))
            case ("places", ":id"): parts.append(id(world.place))
            case (_, ":size"): parts.append("small")
            case (_, ":language"): parts.append("pt-PT")
            case (_, ":username"): parts.append("ana_a")
            case (_, ":file"): parts.append(String(repeating: "x", count: 43) + ".ics")
            case (_, ":token"), (_, ":key"): parts.append(String(repeating: "y", count: 43))
            case (_, ":slug"): parts.append("no-such-thing")
            default: parts.append(random)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
