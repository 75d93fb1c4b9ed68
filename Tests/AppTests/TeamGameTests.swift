@testable import App
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Team games: scheduling, answers, reminders, results, substitutes")
struct TeamGameTests {
    /// Leaving a private team, or being removed from it, ends its games for that person at once: the
    /// answer they gave no longer opens the game, lists it, puts it in their calendar or tells them of changes.
    @Test func aRemovedOrDepartedMemberLosesThePrivateTeamsGamesAtOnce() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "private")
            let url = try await cast.manager.createTeamGame(team: cast.slug, opponent: "Old Town")
            var feeds: [String] = []
            for browser in [cast.player, cast.coach] {
                feeds.append(try #require(try await browser.get("/settings/calendar").firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#)))
            }
            for browser in [cast.player, cast.coach] {
                #expect(try await browser.post("\(url)/rsvp", [("status", "going")], csrfFrom: url).status == .seeOther)
                #expect(try await browser.get(url).contains("Riverside Hall"))
            }
            #expect(try await cast.manager.post("/teams/\(cast.slug)/members/player_p/remove", [], csrfFrom: "/teams/\(cast.slug)").status == .seeOther)
            #expect(try await cast.coach.post("/teams/\(cast.slug)/leave", [], csrfFrom: "/teams/\(cast.slug)").status == .seeOther)
            #expect(try await cast.manager.post("\(url)/cancel", [("confirm", "yes")], csrfFrom: url).status == .seeOther)
            for (browser, feed) in zip([cast.player, cast.coach], feeds) {
                #expect(try await browser.get(url).status == .notFound)
                #expect(!(try await browser.get("/games").contains(url)))
                #expect(!(try await browser.get("/").contains("Old Town")))
                #expect(!(try await app.browser().get(feed).contains("Old Town")))
                #expect(!(try await browser.get("/notifications").contains("Cancelled")))
            }
        }
    }

    /// A manager who scheduled a protected team's game and then left is an outsider like any other.
    @Test func aFormerManagerNoLongerSeesWhereTheGameIs() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let url = try await cast.manager.createTeamGame(team: cast.slug, opponent: "Old Town")
            #expect(try await cast.manager.post("\(url)/rsvp", [("status", "going")], csrfFrom: url).status == .seeOther)
            #expect(try await cast.manager.get(url).contains("Riverside Hall"))
            #expect(try await cast.owner.post("/teams/\(cast.slug)/members/manager_m/remove", [], csrfFrom: "/teams/\(cast.slug)").status == .seeOther)
            let page = try await cast.manager.get(url)
            #expect(page.status == .ok, "a protected team's games are listed for everyone")
            #expect(!page.contains("Riverside Hall") && !page.contains("Arrive 20 minutes early"))
            #expect(!(try await cast.manager.get("/games").contains(url)))
        }
    }

    @Test func aManagerSchedulesAGameAndSeesWhoIsComing() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            // Only managers may schedule.
            #expect(try await cast.player.get("/teams/\(cast.slug)/games/new").status == .forbidden)
            #expect(try await cast.manager.get("/teams/\(cast.slug)").contains("Schedule a game"))
            let form = try await cast.manager.get("/teams/\(cast.slug)/games/new")
            #expect(form.contains("value=\"55.68\"") == false, "the cast's team has no home coordinates")
            let url = try await cast.manager.createTeamGame(team: cast.slug)

            // Every member is told, in-app; nobody else is.
            for (name, browser) in [("player", cast.player), ("coach", cast.coach), ("owner", cast.owner)] {
                #expect(try await browser.get("/notifications").contains("New game for Matrix United"), "\(name) not told")
            }
            #expect(!(try await cast.stranger.get("/notifications").contains("New game")))
            #expect(!(try await cast.manager.get("/notifications").contains("New game")), "the scheduler needs no notice")

            // The team page lists it; the game page shows the day, time and zone.
            #expect(try await cast.player.get("/teams/\(cast.slug)").contains(url))
            let page = try await cast.player.get(url)
            #expect(page.status == .ok)
            #expect(page.main.contains("Matrix United vs. Old Town"))
            #expect(page.contains("18:00–19:00 (GMT)") || page.contains("18:00–19:00 (UTC)"))
            #expect(page.contains("Are you playing?"))

            try await cast.player.post("\(url)/rsvp", [("status", "going"), ("note", "Bringing bibs")], csrfFrom: url)
            try await cast.coach.post("\(url)/rsvp", [("status", "maybe")], csrfFrom: url)
            let bad = try await cast.coach.post("\(url)/rsvp", [("status", "joined")], csrfFrom: url)
            #expect(bad.status == .unprocessableEntity)
            #expect(try await cast.stranger.post("\(url)/rsvp", [("status", "going")], csrfFrom: url).status == .forbidden)

            let managerView = try await cast.manager.get(url)
            #expect(managerView.contains("Bringing bibs"))
            #expect(managerView.contains("<strong>1</strong> Going"))
            #expect(managerView.contains("<strong>1</strong> Maybe"))
            #expect(managerView.contains("<strong>2</strong> No answer"))
            #expect(managerView.contains("No answer yet"))
            #expect(managerView.contains("Olga Owner"), "the owner has not answered")

            // A reminder reaches exactly those who have not answered.
            try await cast.manager.post("\(url)/remind", [], csrfFrom: url)
            #expect(try await cast.owner.get("/notifications").contains("Are you playing?"))
            #expect(try await cast.manager.get("/notifications").contains("Are you playing?"))
            #expect(!(try await cast.player.get("/notifications").contains("Are you playing?")))
            #expect(try await cast.player.post("\(url)/remind", [], csrfFrom: url).status == .forbidden)

            // My games shows it with my answer; the owner sees it as waiting for them.
            let mine = try await cast.player.get("/games")
            #expect(mine.contains("Matrix United vs. Old Town"))
            #expect(mine.contains("status-going"))
            let owners = try await cast.owner.get("/games")
            #expect(owners.contains("Waiting for you or for others"))
            #expect(owners.contains("No answer yet"))
        }
    }

    @Test func changingTheTimeAsksAgainButChangingTheNotesDoesNot() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "public")
            let url = try await cast.manager.createTeamGame(team: cast.slug)
            try await cast.player.post("\(url)/rsvp", [("status", "going")], csrfFrom: url)
            let id = UUID(uuidString: String(url.dropFirst("/games/".count)))!

            let when = app.gameDay(3)
            var fields: [(String, String)] = [
                ("day", when.day), ("time", "18:00"), ("time_zone", "UTC"), ("duration_minutes", "60"),
                ("place_name", "Riverside Hall"), ("latitude", "55.68"), ("longitude", "12.57"),
                ("opponent_name", "Old Town"), ("description", "New notes only."),
            ]
            #expect(try await cast.manager.post("\(url)/edit", fields, csrfFrom: "\(url)/edit").status == .seeOther)
            #expect(try await GamePlayer.query(on: app.db).filter(\.$game.$id == id).count() == 1, "notes alone keep answers")
            #expect(!(try await cast.player.get("/notifications").contains("moved to")))

            fields[1] = ("time", "20:15")
            #expect(try await cast.manager.post("\(url)/edit", fields, csrfFrom: "\(url)/edit").status == .seeOther)
            #expect(try await GamePlayer.query(on: app.db).filter(\.$game.$id == id).count() == 0, "a new time resets answers")
            #expect(try await cast.player.get("/notifications").contains("Please answer again"))
            let game = try #require(try await Game.find(id, on: app.db))
            #expect(game.sequence == 1)

            // A player may not edit.
            #expect(try await cast.player.post("\(url)/edit", fields, csrfFrom: url).status == .forbidden)
        }
    }

    @Test func everyBadFieldGetsItsOwnMessage() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("owner")
            let slug = try await owner.createTeam("Form Testers")
            let past = app.gameDay(-1)
            let page = try await owner.post(
                "/teams/\(slug)/games/new",
                [
                    ("day", past.day), ("time", "18:00"), ("time_zone", "UTC"), ("duration_minutes", "1500"),
                    ("latitude", "91"), ("longitude", "12"), ("opponent_name", String(repeating: "x", count: 81)),
                ], csrfFrom: "/teams/\(slug)/games/new")
            #expect(page.status == .unprocessableEntity)
            #expect(page.contains("Choose a date and time in the future"))
            #expect(page.contains("Enter a duration between 5 minutes and 24 hours"))
            #expect(page.contains("Enter a latitude between -90 and 90"))
            #expect(page.contains("Keep the opponent&#39;s name to 80 characters") || page.contains("Keep the opponent's name to 80 characters"))
            let zone = try await owner.post(
                "/teams/\(slug)/games/new",
                [
                    ("day", "2031-02-30"), ("time", "25:00"), ("time_zone", "Mars/Base"), ("duration_minutes", "ninety"),
                ], csrfFrom: "/teams/\(slug)/games/new")
            #expect(zone.contains("Enter a real date"))
            #expect(zone.contains("Choose the venue&#39;s time zone") || zone.contains("Choose the venue's time zone"))
            #expect(try await Game.query(on: app.db).count() == 0)

            let pickup = try await owner.post(
                "/games/new",
                [
                    ("sport", "quidditch"), ("day", app.gameDay(2).day), ("time", "10:00"), ("time_zone", "UTC"), ("duration_minutes", "60"),
                    ("privacy", "public"), ("age_group", "any"), ("gender", "any"), ("skill", "any"), ("capacity", "4"), ("min_players", "6"),
                ], csrfFrom: "/games/new")
            #expect(pickup.status == .unprocessableEntity)
            #expect(pickup.contains("Choose a sport from the list"))
            #expect(pickup.contains("can&#39;t be fewer than the minimum (6)") || pickup.contains("can't be fewer than the minimum (6)"))
            let huge = try await owner.post(
                "/games/new",
                [
                    ("sport", "volleyball"), ("day", app.gameDay(2).day), ("time", "10:00"), ("time_zone", "UTC"), ("duration_minutes", "60"),
                    ("privacy", "private"), ("age_group", "any"), ("gender", "any"), ("skill", "any"), ("capacity", "101"), ("min_players", "1"),
                ], csrfFrom: "/games/new")
            #expect(huge.contains("Enter a number of players between 2 and 100"))
            #expect(huge.contains("Enter a minimum between 2 and 100"))
            #expect(huge.contains("Choose who can join"))
            #expect(try await Game.query(on: app.db).count() == 0)

            let url = try await owner.createTeamGame(team: slug)
            for count in ["0", "21", "many"] {
                let subs = try await owner.post("\(url)/subs", [("count", count)], csrfFrom: url)
                #expect(subs.status == .unprocessableEntity)
                #expect(subs.contains("Ask for between 1 and 20 substitutes"))
            }
        }
    }

    @Test func substitutesFindTheGameAndClaimPlacesFirstComeFirstServed() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let url = try await cast.manager.createTeamGame(team: cast.slug)
            let search = "/find?lat=55.6761&lon=12.5683&radius_km=25&sport=futsal"
            #expect(!(try await cast.stranger.get(search).contains(url)), "not listed before asking for substitutes")
            try await cast.manager.post("\(url)/subs", [("count", "2")], csrfFrom: url)

            let found = try await cast.stranger.get(search)
            #expect(found.contains(url))
            #expect(found.contains("2 substitutes wanted"))
            #expect(found.contains("(approximate)"), "a protected team's ground is shown as an area")
            #expect(!(try await cast.stranger.get(search.replacingOccurrences(of: "futsal", with: "volleyball")).contains(url)))
            #expect(!(try await cast.stranger.get("/find?lat=56.16&lon=10.2&radius_km=25").contains(url)), "outside the radius")
            #expect(!(try await cast.player.get(search).contains(url)), "team members are not asked to sub for their own team")

            // Before claiming, the stranger sees only the area.
            let before = try await cast.stranger.get(url)
            #expect(before.contains("Claim a substitute place"))
            #expect(!before.contains("Riverside Hall"))

            let outsider = app.browser(); try await outsider.signUp("outsider")
            try await cast.stranger.post("\(url)/subs/claim", [], csrfFrom: url)
            let twice = try await cast.stranger.post("\(url)/subs/claim", [], csrfFrom: url)
            #expect(twice.status == .conflict)
            #expect(twice.contains("You already have a place"))
            #expect(try await cast.requester.post("\(url)/subs/claim", [], csrfFrom: url).status == .seeOther)
            let late = try await outsider.post("\(url)/subs/claim", [], csrfFrom: url)
            #expect(late.status == .conflict)
            #expect(late.contains("every substitute place is already filled"))
            #expect(try await cast.player.post("\(url)/subs/claim", [], csrfFrom: url).status == .conflict)

            #expect(try await cast.manager.get("/notifications").contains("All 2 substitute places are filled"))
            let after = try await cast.stranger.get(url)
            #expect(after.contains("Riverside Hall"), "a substitute sees the exact place")
            #expect(after.contains("Substitute"))
            #expect(!(try await outsider.get(search).contains(url)), "a filled request is no longer listed")

            // A substitute who drops out reopens one place.
            try await cast.stranger.post("\(url)/leave", [], csrfFrom: url)
            #expect(try await outsider.get(search).contains("1 substitute wanted"))
        }
    }

    @Test func twoPeopleCannotBothTakeTheLastSubstitutePlace() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("owner")
            let slug = try await owner.createTeam("Short Handed", privacy: "public")
            let url = try await owner.createTeamGame(team: slug)
            try await owner.post("\(url)/subs", [("count", "1")], csrfFrom: url)
            var claimers: [Browser] = []
            for index in 0..<6 {
                let browser = app.browser(); try await browser.signUp("claimer\(index)")
                _ = try await browser.get(url)
                claimers.append(browser)
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for browser in claimers { group.addTask { try await browser.post("\(url)/subs/claim", [], csrfFrom: url).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .seeOther }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 5, "\(statuses)")
            #expect(try await GamePlayer.query(on: app.db).filter(\.$isSub == true).count() == 1)
            let game = try #require(try await Game.query(on: app.db).first())
            #expect(game.subsFilled == 1)
        }
    }

    @Test func leagueResultsFeedTheStandings() async throws {
        try await withApp { app in
            let maya = app.browser(); try await maya.signUp("maya")
            let home = try await maya.createTeam("Riverside Futsal", privacy: "public")
            let away = try await maya.createTeam("Old Town Futsal", privacy: "public")
            let created = try await maya.post(
                "/leagues/new",
                [("name", "City League"), ("sport", "futsal"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", "public")],
                csrfFrom: "/leagues/new")
            let league = try #require(created.location)
            try await maya.post("\(league)/teams", [("team", home)], csrfFrom: league)
            try await maya.post("\(league)/teams", [("team", away)], csrfFrom: league)

            let form = try await maya.get("/teams/\(home)/games/new")
            #expect(form.contains("<option value=\"\(away)\">Old Town Futsal</option>"))
            let url = try await maya.createTeamGame(team: home, extra: [("opponent_team", away), ("opponent_name", "")])
            // Not before it starts.
            #expect(try await maya.post("\(url)/result", [("home_score", "3"), ("away_score", "1")], csrfFrom: url).status == .unprocessableEntity)

            let id = UUID(uuidString: String(url.dropFirst("/games/".count)))!
            let game = try #require(try await Game.find(id, on: app.db))
            game.startsAt = app.clock.now.addingTimeInterval(-7200)
            try await game.update(on: app.db)
            let bad = try await maya.post("\(url)/result", [("home_score", "-1"), ("away_score", "x")], csrfFrom: url)
            #expect(bad.status == .unprocessableEntity)
            #expect(try await maya.post("\(url)/result", [("home_score", "3"), ("away_score", "1")], csrfFrom: url).status == .seeOther)
            #expect(try await maya.get(url).contains("Riverside Futsal 3–1 Old Town Futsal"))

            let table = try await app.browser().get(league).body
            let first = try #require(table.range(of: "Riverside Futsal"))
            let second = try #require(table.range(of: "Old Town Futsal"))
            #expect(first.lowerBound < second.lowerBound)
            #expect(table.contains("<td><strong>3</strong></td>"), "three points for the win")
        }
    }
}
