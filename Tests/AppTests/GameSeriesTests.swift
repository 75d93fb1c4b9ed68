@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Team games: weekly sessions, changed or cancelled one at a time or with the ones after")
struct GameSeriesTests {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The form's fields for a weekly series from `first` to `until`.
    static func fields(first: CalendarDate, until: String, time: String = "18:00", zone: String = "UTC") -> [(String, String)] {
        [
            ("day", first.description), ("time", time), ("time_zone", zone), ("duration_minutes", "90"),
            ("place_name", "Riverside Hall"), ("latitude", "55.68"), ("longitude", "12.57"),
            ("opponent_name", ""), ("description", "Training: bring both shirts."), ("repeats", "weekly"), ("until", until),
        ]
    }

    static func firstDay(_ app: TestApp) throws -> CalendarDate { try #require(CalendarDate(iso: app.gameDay(3).day)) }

    static func sessions(_ app: TestApp) async throws -> [Game] {
        try await Game.query(on: app.db).sort(\.$startsAt).all()
    }

    static func userID(_ app: TestApp, _ username: String) async throws -> UUID {
        try #require(try await User.query(on: app.db).filter(\.$username == username).first()?.requireID())
    }

    static func path(_ game: Game) throws -> String { SiteURL.game(try game.requireID()).path }

    /// An edit of a session as its form would send it: its own values, with `changes` over them.
    static func editFields(_ game: Game, _ changes: [(String, String)]) -> [(String, String)] {
        let parts = LocalTime.parts(of: game.startsAt, zone: game.timeZone)
        let fields = [
            ("day", parts.day), ("time", parts.time), ("time_zone", game.timeZone), ("duration_minutes", String(game.durationMinutes)),
            ("place_name", game.placeName ?? ""), ("latitude", "55.68"), ("longitude", "12.57"),
            ("opponent_name", game.opponentName ?? ""), ("description", game.description),
        ]
        return fields.filter { field in !changes.contains { $0.0 == field.0 } } + changes
    }

    @Test func aWeeklySessionStaysAtItsLocalTimeWhenTheClocksChange() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "private")
            let first = try Self.firstDay(app)
            // Forty weeks always cross at least one of Lisbon's two clock changes.
            let until = first.adding(days: 40 * 7 + 3)
            let page = try await cast.manager.post(
                "/teams/\(cast.slug)/games/new", Self.fields(first: first, until: until.description, time: "19:00", zone: "Europe/Lisbon"),
                csrfFrom: "/teams/\(cast.slug)/games/new")
            #expect(page.status == .seeOther, "\(page.body.prefix(600))")

            let games = try await Self.sessions(app)
            try #require(games.count == 41)
            #expect(page.location == (try Self.path(games[0])), "the first session's page follows")
            let series = try #require(games[0].seriesID)
            let lisbon = TimeZone.named("Europe/Lisbon")
            var offsets: Set<Int> = []
            for (week, game) in games.enumerated() {
                let local = LocalTime.parts(of: game.startsAt, zone: "Europe/Lisbon")
                #expect(local.time == "19:00", "week \(week) starts at \(local.time)")
                #expect(local.day == first.adding(days: 7 * week).description)
                #expect(game.seriesID == series && game.kind == .team && game.status == .scheduled)
                offsets.insert(lisbon.secondsFromGMT(for: game.startsAt))
            }
            #expect(offsets.count == 2, "the series crosses a change of the clocks")

            // Every member is told once, of the series, not once a week.
            let player = try await Self.userID(app, "player_p")
            let told = try await Notification.query(on: app.db).filter(\.$recipient.$id == player).filter(\.$kind == "new_game").all()
            #expect(told.count == 1)
            #expect(told.first?.text.contains("New weekly sessions for Matrix United") == true)
            #expect(told.first?.text.contains("\(Self.weekdays[first.weekday]) until \(until.adding(days: -3).day) \(Self.months[until.month - 1])") == true)

            // A later session's page: its own time, and that it repeats.
            let later = try Self.path(games[30])
            let shown = try await cast.player.get(later)
            #expect(shown.status == .ok)
            #expect(shown.main.contains("19:00–20:30"))
            let last = until.adding(days: -3)
            #expect(shown.main.contains("Every \(Self.weekdays[first.weekday]) until \(last.day) \(Self.months[last.month - 1])"))
            #expect(shown.main.contains(try Self.path(games[31])), "it links to the next session")
            #expect(shown.contains("Are you playing?"))
            // A private team's sessions are its members' alone.
            #expect(try await cast.stranger.get(later).status == .notFound)
            #expect(try await cast.anonymous.get(later).status != .ok)
        }
    }

    @Test func thisAndTheFollowingSessionsChangeAndEarlierOnesDoNot() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let first = try Self.firstDay(app)
            let created = try await cast.manager.post(
                "/teams/\(cast.slug)/games/new", Self.fields(first: first, until: first.adding(days: 35).description),
                csrfFrom: "/teams/\(cast.slug)/games/new")
            #expect(created.status == .seeOther)
            var games = try await Self.sessions(app)
            try #require(games.count == 6)
            for game in games {
                let url = try Self.path(game)
                #expect(try await cast.player.post("\(url)/rsvp", [("status", "going")], csrfFrom: url).status == .seeOther)
            }
            let third = try Self.path(games[2])
            let form = try await cast.manager.get("\(third)/edit")
            #expect(form.main.contains("This and the following sessions") && form.main.contains("Only this session"))
            #expect(form.main.contains(#"id="scope-one" name="scope" value="one" checked"#), "only this session unless asked")
            #expect(
                !(try await cast.manager.get("\(try Self.path(games[5]))/edit").main.contains("This and the following sessions")), "the last has none after it")

            // A new time from the third session on: the first two keep theirs and their answers.
            let moved = try await cast.manager.post(
                "\(third)/edit", Self.editFields(games[2], [("time", "20:15"), ("description", "Hall B from now on."), ("scope", "following")]),
                csrfFrom: "\(third)/edit")
            #expect(moved.status == .seeOther)
            games = try await Self.sessions(app)
            for (week, game) in games.enumerated() {
                let local = LocalTime.parts(of: game.startsAt, zone: "UTC")
                #expect(local.day == first.adding(days: 7 * week).description, "week \(week) stays on its day")
                let answers = try await GamePlayer.query(on: app.db).filter(\.$game.$id == game.requireID()).count()
                if week < 2 {
                    #expect(local.time == "18:00" && game.description == "Training: bring both shirts." && game.sequence == 0)
                    #expect(answers == 1, "an earlier session keeps its answers")
                } else {
                    #expect(local.time == "20:15" && game.description == "Hall B from now on." && game.sequence == 1, "week \(week)")
                    #expect(answers == 0, "a moved session asks again")
                    #expect(!game.dayReminderSent && !game.soonReminderSent)
                }
            }
            let player = try await Self.userID(app, "player_p")
            let told = try await Notification.query(on: app.db).filter(\.$recipient.$id == player).filter(\.$kind == "game_changed").all()
            #expect(told.count == 1, "one notice for the sessions that moved")
            #expect(told.first?.text.contains("with the 3 sessions after it. Please answer again.") == true)

            // One session alone: only its notes.
            let fourth = try Self.path(games[3])
            #expect(
                try await cast.manager.post(
                    "\(fourth)/edit", Self.editFields(games[3], [("description", "Away kit."), ("scope", "one")]), csrfFrom: "\(fourth)/edit"
                )
                .status == .seeOther)
            // The duration from the second session on: the fourth keeps the notes it was given alone, nobody answers again.
            let second = try Self.path(games[1])
            #expect(
                try await cast.manager.post(
                    "\(second)/edit", Self.editFields(games[1], [("duration_minutes", "120"), ("scope", "following")]), csrfFrom: "\(second)/edit"
                ).status == .seeOther)
            games = try await Self.sessions(app)
            #expect(games.map(\.durationMinutes) == [90, 120, 120, 120, 120, 120])
            #expect(
                games.map(\.description) == [
                    "Training: bring both shirts.", "Training: bring both shirts.", "Hall B from now on.", "Away kit.", "Hall B from now on.",
                    "Hall B from now on.",
                ])
            #expect(try await GamePlayer.query(on: app.db).filter(\.$game.$id == games[1].requireID()).count() == 1)

            // A day later from the fifth on: the fifth and sixth move a day, keeping the time.
            let fifth = try Self.path(games[4])
            let nextDay = first.adding(days: 29).description
            #expect(
                try await cast.manager.post("\(fifth)/edit", Self.editFields(games[4], [("day", nextDay), ("scope", "following")]), csrfFrom: "\(fifth)/edit")
                    .status == .seeOther)
            games = try await Self.sessions(app)
            #expect(games.map { LocalTime.parts(of: $0.startsAt, zone: "UTC").day } == [0, 7, 14, 21, 29, 36].map { first.adding(days: $0).description })
            #expect(games.suffix(4).allSatisfy { LocalTime.parts(of: $0.startsAt, zone: "UTC").time == "20:15" })

            // Editing is the managers'.
            #expect(try await cast.player.post("\(second)/edit", Self.editFields(games[1], [("scope", "following")]), csrfFrom: second).status == .forbidden)
        }
    }

    @Test func oneSessionOrThisAndTheFollowingAreCancelled() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let first = try Self.firstDay(app)
            #expect(
                try await cast.manager.post(
                    "/teams/\(cast.slug)/games/new", Self.fields(first: first, until: first.adding(days: 28).description),
                    csrfFrom: "/teams/\(cast.slug)/games/new"
                ).status == .seeOther)
            var games = try await Self.sessions(app)
            try #require(games.count == 5)
            let second = try Self.path(games[1])
            #expect(try await cast.manager.get(second).main.contains("Which sessions to cancel"))
            #expect(try await cast.manager.post("\(second)/cancel", [("confirm", "yes"), ("scope", "one")], csrfFrom: second).status == .seeOther)
            games = try await Self.sessions(app)
            #expect(games.map(\.isCancelled) == [false, true, false, false, false])

            let fourth = try Self.path(games[3])
            #expect(try await cast.manager.post("\(fourth)/cancel", [("confirm", "yes"), ("scope", "following")], csrfFrom: fourth).status == .seeOther)
            games = try await Self.sessions(app)
            #expect(games.map(\.isCancelled) == [false, true, false, true, true])
            #expect(games.map(\.sequence) == [0, 1, 0, 1, 1])

            let player = try await Self.userID(app, "player_p")
            let told = try await Notification.query(on: app.db).filter(\.$recipient.$id == player).filter(\.$kind == "game_cancelled").all()
            #expect(told.count == 2, "one for the session alone, one for the two at the end")
            #expect(told.contains { $0.text.contains("and the 1 session after it") })

            // The series now ends with the third session, the last still on.
            let third = games[2]
            let page = try await cast.player.get(try Self.path(games[0]))
            let end = LocalTime.day(of: third.startsAt, zone: "UTC")
            #expect(page.main.contains("Every \(Self.weekdays[first.weekday]) until \(end.day) \(Self.months[end.month - 1])"))
            #expect(page.main.contains(try Self.path(third)), "the next session still on is the third")
            #expect(!(try await cast.manager.get(try Self.path(third)).main.contains("Which sessions to cancel")), "nothing after it is still on")
            #expect(
                try await cast.player.post("\(try Self.path(third))/cancel", [("confirm", "yes"), ("scope", "following")], csrfFrom: try Self.path(third))
                    .status == .forbidden)
        }
    }

    @Test func aSeriesThatMakesNoSenseIsRefusedAndTheFormKeepsWhatWasTyped() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "public")
            let first = try Self.firstDay(app)
            let path = "/teams/\(cast.slug)/games/new"
            let form = try await cast.manager.get(path)
            #expect(form.main.contains("Repeats") && form.main.contains(#"id="repeats-never" name="repeats" value="never" checked"#))

            let cases: [(String, String, String)] = [
                ("weekly", "", "Enter the date of the last session"),
                ("weekly", "someday", "Enter the date of the last session"),
                ("weekly", first.adding(days: -7).description, "Choose a last date at least a week after the first session"),
                ("weekly", first.adding(days: 3).description, "Choose a last date at least a week after the first session"),
                ("weekly", first.adding(days: 53 * 7).description, "A series has at most 53 weekly sessions"),
                ("daily", first.adding(days: 30).description, "Choose whether the game repeats"),
            ]
            for (repeats, until, message) in cases {
                var fields = Self.fields(first: first, until: until)
                fields.removeAll { $0.0 == "repeats" }
                fields.append(("repeats", repeats))
                let page = try await cast.manager.post(path, fields, csrfFrom: path)
                #expect(page.status == .unprocessableEntity, "\(repeats) until \(until)")
                #expect(page.main.contains(message), "\(repeats) until \(until)")
                #expect(page.main.contains(#"value="\#(until)""#), "the typed date stays")
                #expect(page.main.contains("Training: bring both shirts."))
                if repeats == "weekly" { #expect(page.main.contains(#"id="repeats-weekly" name="repeats" value="weekly" checked"#)) }
            }
            #expect(try await Game.query(on: app.db).count() == 0)

            // The longest series there is: 53 weeks.
            #expect(
                try await cast.manager.post(path, Self.fields(first: first, until: first.adding(days: 52 * 7).description), csrfFrom: path).status == .seeOther)
            #expect(try await Game.query(on: app.db).count() == 53)
            // A last date without "every week" is no series.
            var once = Self.fields(first: first, until: "nonsense")
            once.removeAll { $0.0 == "repeats" }
            #expect(try await cast.manager.post(path, once + [("repeats", "never")], csrfFrom: path).status == .seeOther)
            #expect(try await Game.query(on: app.db).filter(\.$seriesID == nil).count() == 1)
            // Only managers schedule.
            #expect(
                try await cast.player.post(path, Self.fields(first: first, until: first.adding(days: 14).description), csrfFrom: "/teams/\(cast.slug)").status
                    == .forbidden)
        }
    }

    /// A league game counts once in the table: it does not repeat.
    @Test func aLeagueGameDoesNotRepeat() async throws {
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
            let first = try Self.firstDay(app)
            let path = "/teams/\(home)/games/new"
            let page = try await maya.post(
                path, Self.fields(first: first, until: first.adding(days: 21).description) + [("opponent_team", away)], csrfFrom: path)
            #expect(page.status == .unprocessableEntity)
            #expect(page.main.contains("A league game is played once: it cannot repeat"))
            #expect(try await Game.query(on: app.db).count() == 0)
        }
    }
}
