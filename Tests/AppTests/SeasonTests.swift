@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("A league's season: scheduling, moving fixtures, confirmed results")
struct SeasonTests {
    /// A public futsal league run by Maya with three teams that accepted: her Riverside (with a
    /// ground), Jonas's Old Town and Sam's Northside.
    struct League3 {
        let url: String
        let maya, jonas, sam: Browser
        let riverside, oldTown, northside: String
    }

    static func league(_ app: TestApp, privacy: String = "public") async throws -> League3 {
        let maya = app.browser(); try await maya.signUp("maya", name: "Maya Lind")
        let jonas = app.browser(); try await jonas.signUp("jonas", name: "Jonas Berg")
        let sam = app.browser(); try await sam.signUp("sam_s", name: "Sam Stone")
        let riverside = try await maya.createTeam(
            "Riverside Futsal", privacy: "public", extra: [("place_name", "Riverside Hall"), ("latitude", "55.68"), ("longitude", "12.57")])
        let oldTown = try await jonas.createTeam("Old Town Futsal", privacy: "public", extra: [("place_name", "Old Town Gym")])
        let northside = try await sam.createTeam("Northside Rovers", privacy: "protected")
        let created = try await maya.post(
            "/leagues/new",
            [("name", "City Futsal League"), ("sport", "futsal"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", privacy)],
            csrfFrom: "/leagues/new")
        let url = try #require(created.location)
        for (slug, manager) in [(riverside, maya), (oldTown, jonas), (northside, sam)] {
            #expect(try await maya.post(url + "/teams", [("team", slug)], csrfFrom: url).status == .seeOther)
            if manager !== maya { #expect(try await manager.post("\(url)/teams/\(slug)/accept", [], csrfFrom: url).status == .seeOther) }
        }
        return League3(url: url, maya: maya, jonas: jonas, sam: sam, riverside: riverside, oldTown: oldTown, northside: northside)
    }

    /// The season form's fields: a week from now, on that day's weekday, in UTC.
    static func season(_ app: TestApp, legs: String = "single", days: Double = 7, weekday: String? = nil, time: String = "19:30") -> [(String, String)] {
        let first = app.gameDay(days).day
        return [
            ("legs", legs), ("first_day", first), ("weekday", weekday ?? String(CalendarDate(iso: first)!.weekday)), ("time", time),
            ("duration_minutes", "90"), ("time_zone", "UTC"),
        ]
    }

    static func query(_ fields: [(String, String)]) -> String {
        "?" + fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
    }

    @Test func aManagerPreviewsThenSchedulesARoundRobinWithByes() async throws {
        try await withApp { app in
            let world = try await Self.league(app)
            let form = try await world.maya.get(world.url + "/schedule")
            #expect(form.status == .ok && form.main.contains("Preview the fixtures"))
            #expect(try await world.maya.get(world.url).main.contains("Schedule the season"))

            // The preview shows every round, who rests, and the home team's ground, and writes nothing.
            let preview = try await world.maya.get(world.url + "/schedule" + Self.query(Self.season(app)))
            #expect(preview.status == .ok)
            #expect(preview.main.contains("Round 3") && !preview.main.contains("Round 4"))
            #expect(preview.main.components(separatedBy: "Bye: ").count == 4, "three teams: one rests each round")
            #expect(preview.main.contains("Riverside Hall") && preview.main.contains("Create the 3 games"))
            #expect(try await Game.query(on: app.db).count() == 0)

            let made = try await world.maya.post(world.url + "/schedule", Self.season(app), csrfFrom: world.url + "/schedule")
            #expect(made.status == .seeOther && made.location == world.url)
            let games = try await Game.query(on: app.db).all()
            #expect(games.count == 6, "each of the 3 fixtures is a game of both its teams")
            let fixtures = Dictionary(grouping: games, by: { $0.fixtureID })
            #expect(fixtures.count == 3 && fixtures.values.allSatisfy { $0.count == 2 && $0.filter { $0.playsAway == true }.count == 1 })
            let teams = Dictionary(uniqueKeysWithValues: try await Team.query(on: app.db).all().map { ($0.id!, $0) })
            for pair in fixtures.values {
                let home = try #require(pair.first { $0.playsAway != true }), away = try #require(pair.first { $0.playsAway == true })
                #expect(home.$team.id == away.$opponentTeam.id && away.$team.id == home.$opponentTeam.id)
                #expect(home.startsAt == away.startsAt && home.leagueRound == away.leagueRound && home.$league.id != nil)
                // Both copies are at the home team's ground; each is its own team's game, as private as that team.
                let ground = try #require(teams[home.$team.id!])
                #expect(home.placeName == ground.placeName && away.placeName == ground.placeName)
                #expect(away.privacy == teams[away.$team.id!]?.privacy.rawValue)
                let parts = LocalTime.parts(of: home.startsAt, zone: "UTC")
                #expect(parts.time == "19:30")
                let round = try #require(home.leagueRound)
                #expect(parts.day == CalendarDate(iso: app.gameDay(7).day)!.adding(days: 7 * (round - 1)).description, "one round a week")
            }

            let page = try await app.browser().get(world.url)
            #expect(page.main.contains("Round 1"))
            #expect(page.main.contains("Riverside Futsal vs. Old Town Futsal") || page.main.contains("Old Town Futsal vs. Riverside Futsal"))
            #expect(page.main.contains("Bye: "))
            // Each team's members hear once, and see their games on the team page.
            let note = try await world.sam.get("/notifications")
            #expect(note.main.components(separatedBy: "City Futsal League has scheduled its season").count == 2)
            #expect(try await world.sam.get("/teams/\(world.northside)").main.contains("Northside Rovers vs."))
        }
    }

    @Test func badSeasonsAreRefusedAndLoseNothing() async throws {
        try await withApp { app in
            let world = try await Self.league(app)
            let schedule = world.url + "/schedule"
            // A date in the past, a weekday that is none, a time that is none: 422, the typing kept.
            let past = try await world.maya.get(schedule + Self.query(Self.season(app, days: -3)))
            #expect(past.status == .unprocessableEntity && past.main.contains(#"id="first_day-error""#))
            // Also when the chosen weekday's next date would still be to come.
            let tomorrow = String(CalendarDate(iso: app.gameDay(1).day)!.weekday)
            let gone = try await world.maya.get(schedule + Self.query(Self.season(app, days: -1, weekday: tomorrow)))
            #expect(gone.status == .unprocessableEntity && gone.main.contains(#"id="first_day-error""#))
            let weekday = try await world.maya.post(schedule, Self.season(app, weekday: "9"), csrfFrom: schedule)
            #expect(weekday.status == .unprocessableEntity && weekday.main.contains("Choose a weekday from the list"))
            let time = try await world.maya.post(schedule, Self.season(app, time: "25:61"), csrfFrom: schedule)
            #expect(time.status == .unprocessableEntity && time.main.contains("Enter a time such as 19:30") && time.main.contains(#"value="25:61""#))
            #expect(try await Game.query(on: app.db).count() == 0)

            // Only the league's manager schedules: a team manager is refused, a stranger too.
            #expect(try await world.jonas.get(schedule).status == .forbidden)
            #expect(try await world.jonas.post(schedule, Self.season(app), csrfFrom: world.url).status == .forbidden)
            #expect(try await app.browser().post(schedule, Self.season(app), csrfFrom: "/login").location?.hasPrefix("/login") == true)
            #expect(try await Game.query(on: app.db).count() == 0)

            // Once scheduled, a second season is refused while the first has games to come.
            #expect(try await world.maya.post(schedule, Self.season(app, legs: "double"), csrfFrom: schedule).status == .seeOther)
            #expect(try await Game.query(on: app.db).count() == 12)
            let again = try await world.maya.post(schedule, Self.season(app, days: 60), csrfFrom: world.url)
            #expect(again.status == .conflict && again.main.contains("already scheduled"))
            #expect(try await world.maya.get(schedule).status == .conflict)
            #expect(try await Game.query(on: app.db).count() == 12)
        }
    }

    @Test func aLeagueOfOneTeamCannotBeScheduled() async throws {
        try await withApp { app in
            let maya = app.browser(); try await maya.signUp("maya", name: "Maya Lind")
            let team = try await maya.createTeam("Riverside Futsal")
            let url = try #require(
                try await maya.post(
                    "/leagues/new",
                    [("name", "Lonely League"), ("sport", "futsal"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", "public")],
                    csrfFrom: "/leagues/new"
                ).location)
            #expect(try await maya.post(url + "/teams", [("team", team)], csrfFrom: url).status == .seeOther)
            let refused = try await maya.post(url + "/schedule", Self.season(app), csrfFrom: url)
            #expect(refused.status == .unprocessableEntity && refused.main.contains("at least two teams"))
            #expect(try await Game.query(on: app.db).count() == 0)
        }
    }

    /// A scheduled season's games, home copy and away copy of each fixture, by round.
    static func fixtures(_ app: TestApp) async throws -> [(home: Game, away: Game)] {
        let games = try await Game.query(on: app.db).filter(\.$fixtureID != nil).sort(\.$leagueRound).all()
        return Dictionary(grouping: games, by: { $0.fixtureID }).values.compactMap { pair in
            guard let home = pair.first(where: { $0.playsAway != true }), let away = pair.first(where: { $0.playsAway == true }) else { return nil }
            return (home, away)
        }.sorted { ($0.home.leagueRound ?? 0) < ($1.home.leagueRound ?? 0) }
    }

    static func path(_ game: Game) -> String { "/games/\(game.id!.uuidString.lowercased())" }

    @Test func aFixtureIsMovedByTheHomeManagerOrTheLeagueManagerForBothTeams() async throws {
        try await withApp { app in
            let world = try await Self.league(app)
            let schedule = world.url + "/schedule"
            #expect(try await world.maya.post(schedule, Self.season(app), csrfFrom: schedule).status == .seeOther)
            // The teams also play in another league: moving a fixture keeps it in its own.
            let cup = try #require(
                try await world.maya.post(
                    "/leagues/new",
                    [("name", "Winter Cup"), ("sport", "futsal"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", "public")],
                    csrfFrom: "/leagues/new"
                ).location)
            for (slug, manager) in [(world.oldTown, world.jonas), (world.northside, world.sam)] {
                #expect(try await world.maya.post(cup + "/teams", [("team", slug)], csrfFrom: cup).status == .seeOther)
                #expect(try await manager.post("\(cup)/teams/\(slug)/accept", [], csrfFrom: cup).status == .seeOther)
            }
            // A fixture Maya has no team in: Old Town and Northside.
            let pair = try #require(
                try await Self.fixtures(app).first {
                    [$0.home.$team.id, $0.away.$team.id].allSatisfy { id in id != nil } && $0.home.opponentName != "Riverside Futsal"
                        && $0.away.opponentName != "Riverside Futsal"
                })
            let home = pair.home, away = pair.away
            let (homeManager, awayManager) = home.opponentName == "Old Town Futsal" ? (world.sam, world.jonas) : (world.jonas, world.sam)
            // Each team's members answer on their own copy.
            #expect(try await awayManager.post(Self.path(away) + "/rsvp", [("status", "going")], csrfFrom: Self.path(away)).status == .seeOther)

            let moved = app.gameDay(9)
            let fields: [(String, String)] = [
                ("day", moved.day), ("time", "20:15"), ("time_zone", "UTC"), ("duration_minutes", "75"), ("place_name", "Harbour Hall"),
                ("latitude", ""), ("longitude", ""), ("description", "Moved: the home ground is closed."),
                // Trying to change the opponent of a fixture changes nothing.
                ("opponent_team", ""), ("opponent_name", "Somebody else"),
            ]
            // The visitors may not move it; the home manager may not see an edit link on the away copy either.
            #expect(try await awayManager.get(Self.path(away) + "/edit").status == .forbidden)
            #expect(try await awayManager.post(Self.path(away) + "/edit", fields, csrfFrom: Self.path(away)).status == .forbidden)
            #expect(!(try await awayManager.get(Self.path(away)).main.contains("Edit time, place or details")))
            // The league's manager may, from either copy, without being on either team.
            #expect(try await world.maya.get(Self.path(away)).main.contains("Edit time, place or details"))
            let saved = try await world.maya.post(Self.path(away) + "/edit", fields, csrfFrom: Self.path(away) + "/edit")
            #expect(saved.status == .seeOther)

            for game in [home, away] {
                let now = try #require(try await Game.find(game.id, on: app.db))
                #expect(LocalTime.parts(of: now.startsAt, zone: "UTC") == (moved.day, "20:15"))
                #expect(now.durationMinutes == 75 && now.placeName == "Harbour Hall" && now.sequence == 1)
                #expect(
                    now.$league.id == game.$league.id && now.$opponentTeam.id == game.$opponentTeam.id && now.fixtureID == game.fixtureID,
                    "still the same fixture")
            }
            // Both teams hear of it, and the away team's answers are asked again.
            for manager in [homeManager, awayManager] {
                #expect(try await manager.get("/notifications").main.contains("moved to"))
            }
            #expect(try await GamePlayer.query(on: app.db).filter(\.$game.$id == away.requireID()).count() == 0)

            // The home team's manager may move it too.
            let again = fields.map { $0.0 == "time" ? ($0.0, "18:00") : $0 }
            #expect(try await homeManager.post(Self.path(home) + "/edit", again, csrfFrom: Self.path(home) + "/edit").status == .seeOther)
            #expect(LocalTime.parts(of: try #require(try await Game.find(away.id, on: app.db)).startsAt, zone: "UTC").time == "18:00")
        }
    }

    @Test func aResultCountsOnceTheOtherTeamConfirmsIt() async throws {
        try await withApp { app in
            let world = try await Self.league(app)
            let schedule = world.url + "/schedule"
            #expect(try await world.maya.post(schedule, Self.season(app), csrfFrom: schedule).status == .seeOther)
            let pair = try #require(try await Self.fixtures(app).first)
            let managers = [world.riverside: world.maya, world.oldTown: world.jonas, world.northside: world.sam]
            let slugs = Dictionary(uniqueKeysWithValues: try await Team.query(on: app.db).all().map { ($0.id!, $0.slug) })
            let homeSlug = try #require(slugs[pair.home.$team.id!]), awaySlug = try #require(slugs[pair.away.$team.id!])
            let homeManager = try #require(managers[homeSlug]), awayManager = try #require(managers[awaySlug])
            let homePage = Self.path(pair.home), awayPage = Self.path(pair.away)
            app.app.clock.advance(by: 8 * 86_400)

            // The home manager enters 2–1: it shows as waiting, and the table does not count it yet.
            let entered = try await homeManager.post(homePage + "/result", [("home_score", "2"), ("away_score", "1")], csrfFrom: homePage)
            #expect(entered.status == .seeOther)
            #expect(try await homeManager.get(homePage).main.contains("to confirm)"))
            var league = try await app.browser().get(world.url).main
            #expect(league.contains("2–1") && league.contains("(awaiting confirmation)"))
            #expect(!league.contains("<td><strong>3</strong></td>"), "no points before the other team confirms")
            // The same team cannot confirm its own score; someone outside both teams cannot at all.
            #expect(try await homeManager.post(homePage + "/result/confirm", [], csrfFrom: homePage).status == .conflict)
            let outsider = app.browser(); try await outsider.signUp("olga_o")
            #expect([403, 404].contains(try await outsider.post(awayPage + "/result/confirm", [], csrfFrom: "/settings/profile").status.code))

            // The visitors were told, see the score from their side, and correct it to 3–1 for the home team.
            #expect(try await awayManager.get("/notifications").main.contains("Please confirm or correct it."))
            let seen = try await awayManager.get(awayPage).main
            #expect(seen.contains("1–2") && seen.contains("Confirm the score"))
            let corrected = try await awayManager.post(awayPage + "/result", [("home_score", "1"), ("away_score", "3")], csrfFrom: awayPage)
            #expect(corrected.status == .seeOther)
            #expect(try await Game.find(pair.home.id, on: app.db).map { ($0.homeScore, $0.awayScore) } ?? (nil, nil) == (3, 1))
            league = try await app.browser().get(world.url).main
            #expect(league.contains("3–1") && league.contains("(awaiting confirmation)"))

            // Now it is back with the home team, whose manager confirms: the table counts it.
            #expect(try await homeManager.get("/notifications").main.contains("Please confirm or correct it."))
            #expect(try await awayManager.post(awayPage + "/result/confirm", [], csrfFrom: awayPage).status == .conflict)
            #expect(try await homeManager.post(homePage + "/result/confirm", [], csrfFrom: homePage).status == .seeOther)
            league = try await app.browser().get(world.url).main
            #expect(league.contains("3–1") && !league.contains("(awaiting confirmation)"))
            #expect(league.contains("<td><strong>3</strong></td>"), "three points for the home win")
            let table = try #require(league.range(of: "Standings"))
            let names = Dictionary(uniqueKeysWithValues: try await Team.query(on: app.db).all().map { ($0.id!, $0.name) })
            let winnerName = try #require(names[pair.home.$team.id!])
            let winner = try #require(league.range(of: winnerName, range: table.upperBound..<league.endIndex))
            for (id, name) in names where id != pair.home.$team.id {
                let position = try #require(league.range(of: name, range: table.upperBound..<league.endIndex))
                #expect(winner.lowerBound < position.lowerBound, "the winner tops the table")
            }
            // Entering the same score the other team entered confirms it at once.
            let second = try #require(try await Self.fixtures(app).first { $0.home.leagueRound == 2 })
            app.app.clock.advance(by: 7 * 86_400)
            let secondHomeSlug = try #require(slugs[second.home.$team.id!]), secondAwaySlug = try #require(slugs[second.away.$team.id!])
            let secondHome = try #require(managers[secondHomeSlug]), secondAway = try #require(managers[secondAwaySlug])
            #expect(
                try await secondHome.post(Self.path(second.home) + "/result", [("home_score", "0"), ("away_score", "0")], csrfFrom: Self.path(second.home))
                    .status == .seeOther)
            #expect(
                try await secondAway.post(Self.path(second.away) + "/result", [("home_score", "0"), ("away_score", "0")], csrfFrom: Self.path(second.away))
                    .status == .seeOther)
            #expect(try await Game.query(on: app.db).filter(\.$resultByTeamID != nil).count() == 0)
        }
    }
}
