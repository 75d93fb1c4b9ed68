@testable import App
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

/// `/settings/delete-account`: after it, no row mentions the person and no file of theirs is on
/// disk, while what others share with them carries on (teams pass to a manager, games keep their
/// counts and waiting lists move up).
@Suite struct AccountDeletionTests {
    /// Every table and column of the database, searched for `needle` (as a UUID or inside text).
    static func rowsMentioning(_ needle: UUID, in app: TestApp) async throws -> [String] {
        let sql = app.sql
        let tables = try await app.tableNames()
        // Searching no table would find the person nowhere: the search must have tables to read.
        #expect(tables.count > 30 && tables.contains("users"), "searched only \(tables)")
        let text = needle.uuidString.lowercased()
        var found: [String] = []
        for table in tables {
            for row in try await sql.raw("SELECT * FROM \(ident: table)").all() {
                for column in row.allColumns {
                    let asUUID = try? row.decode(column: column, as: UUID?.self)
                    let asText = (try? row.decode(column: column, as: String?.self)) ?? nil
                    if asUUID == needle || asText?.lowercased().contains(text) == true {
                        found.append("\(table).\(column)")
                    }
                }
            }
        }
        return found
    }

    static func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix(".sqlite") && !$0.contains(".sqlite-") && !["secret.key", "vapid.key"].contains($0) }
            .filter {
                var isDirectory: ObjCBool = false; FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isDirectory);
                return !isDirectory.boolValue
            }
    }

    @Test func deletingAnAccountLeavesNoTraceButKeepsWhatOthersShare() async throws {
        try await withApp { app in
            // Olga owns Matrix United alone (Mads manages it) and a second team with nobody else.
            let cast = try await TeamCast.make(app, privacy: "protected")
            let olga = cast.owner
            let solo = try await olga.createTeam("Olga Solo")
            let fixture = try await olga.createTeamGame(team: cast.slug)
            // Ben's pick-up game has two places, Ben's own and Olga's; Cleo waits first, then Pia.
            let ben = app.browser(); try await ben.signUp("ben")
            let pickup = try await ben.createPickup(capacity: 2, minimum: 2)
            for player in [olga, cast.coach, cast.player] {
                try await player.post("\(pickup)/join", [], csrfFrom: pickup)
            }
            // A picture, a challenge with a friend's reply, a reply to the friend's challenge, a workout.
            try await olga.upload(
                "/settings/avatar", field: "avatar", filename: "me.jpg", contentType: "image/jpeg",
                data: try fixturePhoto("rotated_gps.jpg"), csrfFrom: "/settings/avatar")
            try await olga.befriend(ben, "ben", me: "owner_o")
            let sent = try #require(try await olga.sendChallenge(to: ["ben"]).location)
            #expect(try await ben.reply(to: sent).status == .seeOther)
            let bens = try #require(try await ben.sendChallenge(to: ["owner_o"]).location)
            #expect(try await olga.reply(to: bens).status == .seeOther)
            // Ben accepts Olga's reply; his challenge to Olga and Pia counts her as done.
            try await ben.befriend(cast.player, "player_p", me: "ben")
            _ = try #require(try await ben.sendChallenge(to: ["owner_o", "player_p"], caption: "Two of you, one bench").location)
            let olgaReply = try #require(
                try await ChallengeResponse.query(on: app.db).filter(\.$challenge.$id == UUID(uuidString: String(bens.split(separator: "/").last!))!).first())
            #expect(
                try await ben.post("\(bens)/responses/\(try olgaReply.requireID().uuidString.lowercased())/accept", [("stars", "5")], csrfFrom: bens).status
                    == .seeOther)
            #expect(try await ben.get(bens).contains("1 of 1 completed"))
            // Ben plays in Olga Solo, which nobody can take over.
            try await olga.post("/teams/\(solo)/invites", [("username", "ben")], csrfFrom: "/teams/\(solo)")
            let invite = try #require(try await ben.get("/teams").firstMatch(#"action="/invites/([^/]+)/accept""#))
            try await ben.post("/invites/\(invite)/accept", [], csrfFrom: "/teams")
            let token = try await olga.deviceToken()
            #expect(
                try await olga.api(
                    .POST, "/api/v1/workouts", token: token,
                    json: #"{"external_id": "w1", "sport": "running", "start": \#(Int(app.clock.milliseconds) - 3_600_000)}"#
                ).status == .created)
            _ = try await olga.get("/settings/calendar")
            await app.app.photoSizer.idle()

            let olgaID = try #require(try await User.query(on: app.db).filter(\.$username == "owner_o").first()?.requireID())
            let filesBefore = Self.files(under: app.store.config.dataDirectory)
            #expect(filesBefore.count >= 10, "avatar and four photos with their sizes: \(filesBefore)")

            // The page says what happens to the teams.
            let page = try await olga.get("/settings/delete-account")
            #expect(page.contains("passes to <strong>Mads Manager</strong>"))
            #expect(page.contains("Olga Solo</a>: <strong>deleted</strong>"))
            // Wrong username or password: nothing happens.
            let wrongName = try await olga.post(
                "/settings/delete-account", [("username", "owner"), ("password", Browser.password)], csrfFrom: "/settings/delete-account")
            #expect(wrongName.status == .unprocessableEntity && wrongName.contains("Type your username, owner_o, exactly"))
            let wrongPassword = try await olga.post(
                "/settings/delete-account", [("username", "owner_o"), ("password", "not-it-at-all")], csrfFrom: "/settings/delete-account")
            #expect(wrongPassword.status == .unprocessableEntity && wrongPassword.contains("That is not your password"))
            #expect(try await User.find(olgaID, on: app.db) != nil)

            let done = try await olga.post(
                "/settings/delete-account", [("username", "Owner_O "), ("password", Browser.password)], csrfFrom: "/settings/delete-account")
            #expect(done.status == .seeOther && done.location == "/")
            #expect(try await olga.get("/settings/profile").status != .ok, "signed out")
            #expect(try await Self.rowsMentioning(olgaID, in: app) == [])
            // Olga's files are gone; Ben's challenge photo is all that is left.
            let filesAfter = Self.files(under: app.store.config.dataDirectory)
            #expect(filesAfter.count == 8, "Ben's two challenge photos: original, served, large, small: \(filesAfter)")
            #expect(try await app.browser().get("/u/owner_o").status == .notFound)
            // Nothing she did is told under her name any more; Mads and Ben hear what became of her teams.
            #expect(try await Notification.query(on: app.db).all().filter { $0.text.contains("Olga Owner") }.map(\.text) == [])
            #expect(try await cast.manager.get("/notifications").contains("You are now the owner of Matrix United"))
            #expect(try await ben.get("/notifications").contains("Olga Solo is closed"))
            // Ben's challenges count without her: the one she completed is open again, the other waits only for Pia.
            let counts = try await Challenge.query(on: app.db).all().map { "\($0.caption): \($0.completedCount)/\($0.recipientCount)" }.sorted()
            #expect(counts == ["Find this mural and copy the pose: 0/0", "Two of you, one bench: 0/1"])

            // Matrix United carries on under Mads, with the fixture Olga scheduled; Olga Solo is gone.
            #expect(try await cast.manager.get("/teams/\(cast.slug)").contains("Olga") == false)
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == cast.slug).first())
            let owners = try await Membership.query(on: app.db).filter(\.$team.$id == team.requireID()).filter(\.$role == .owner).with(\.$user).all()
            #expect(owners.map(\.user.username) == ["manager_m"])
            #expect(try await cast.player.get(fixture).status == .ok)
            #expect(try await Team.query(on: app.db).filter(\.$slug == solo).first() == nil)
            // Olga's place is held for Cleo, first on the waiting list; Pia still waits.
            let game = try #require(try await Game.find(UUID(uuidString: String(pickup.split(separator: "/").last!)), on: app.db))
            #expect(game.joinedCount == 2)
            for (username, status) in [("coach_c", GamePlayer.Status.offered), ("player_p", .waitlisted)] {
                let person = try #require(try await User.query(on: app.db).filter(\.$username == username).first())
                let place = try await GamePlayer.query(on: app.db).filter(\.$game.$id == game.requireID()).filter(\.$user.$id == person.requireID()).first()
                #expect(place?.status == status, "\(username)")
            }
        }
    }

    /// Asking for the password again (to delete the account or change the password) counts wrong
    /// answers like sign-in does: a borrowed session cannot be used to guess it.
    /// Deletion runs the features' hooks in list order, and Games hands team games to the owner
    /// Teams has just promoted: the other way round they would go with the person.
    @Test func teamsAreHandedOnBeforeTheirGames() {
        let order = Features.all.map { ObjectIdentifier($0) }
        let teams = order.firstIndex(of: ObjectIdentifier(Teams.self)), games = order.firstIndex(of: ObjectIdentifier(Games.self))
        #expect(teams != nil && games != nil && teams! < games!)
    }

    @Test func passwordRechecksAreLimited() async throws {
        try await withApp { app in
            let ana = app.browser(); try await ana.signUp("ana")
            for attempt in 1...LoginLimiter.maxFailures {
                let form = attempt.isMultiple(of: 2) ? "/settings/password" : "/settings/delete-account"
                let fields =
                    attempt.isMultiple(of: 2)
                    ? [("current_password", "guess-\(attempt)"), ("new_password", "a-new-long-password"), ("confirm_password", "a-new-long-password")]
                    : [("username", "ana"), ("password", "guess-\(attempt)")]
                #expect(try await ana.post(form, fields, csrfFrom: form).status == .unprocessableEntity)
            }
            // Now even the right password waits, on both forms, and the account is untouched.
            let locked = try await ana.post(
                "/settings/delete-account", [("username", "ana"), ("password", Browser.password)], csrfFrom: "/settings/delete-account")
            // The wait runs from the first wrong answer, so it is 15 minutes less however long the
            // ten answers took.
            #expect(locked.status == .tooManyRequests)
            let minutes = try #require(locked.firstMatch(#"Too many wrong passwords\. Try again in (\d+) minutes?\."#).flatMap { Int($0) })
            let oldest = try #require(try await LoginAttempt.query(on: app.db).sort(\.$attemptedAt).first()?.attemptedAt)
            let expected = Int(((oldest.addingTimeInterval(LoginLimiter.window).timeIntervalSince(app.clock.now)) / 60).rounded(.up))
            #expect(abs(minutes - expected) <= 1 && (1...15).contains(minutes), "\(minutes) minutes, expected about \(expected)")
            let change = try await ana.post(
                "/settings/password",
                [
                    ("current_password", Browser.password), ("new_password", "a-new-long-password"),
                    ("confirm_password", "a-new-long-password"),
                ], csrfFrom: "/settings/password")
            #expect(change.status == .tooManyRequests)
            #expect(try await ana.get("/settings/profile").status == .ok)
        }
    }
}
