@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Pick-up games: joining, waitlists, privacy, find, calendar feeds")
struct PickupGameTests {
    /// A new public game near home reaches the people it suits, once a day at most; not those
    /// far away, of another sport or level, anyone under 16, someone who turned the topic off, or
    /// anyone for a protected game.
    @Test func aNewGameIsToldToPlayersNearbyOnceADay() async throws {
        try await withApp { app in
            let oda = app.browser()
            try await oda.signUp("oda")
            var people: [String: Browser] = [:]
            // name, birth date, sport, skill, km north of the game's place
            let cast: [(String, String, Sport, Skill, Double)] = [
                ("ana", "1990-01-01", .volleyball, .intermediate, 2), ("ben", "1990-01-01", .volleyball, .intermediate, 50),
                ("cai", "1990-01-01", .soccer, .intermediate, 1),
                ("kim", "\(LocalTime.utcDay(of: app.clock.now.addingTimeInterval(3 * 86_400)).year - 14)-01-01", .volleyball, .beginner, 1),
                ("eve", "1985-01-01", .volleyball, .beginner, 3), ("fay", "1992-01-01", .volleyball, .advanced, 1),
            ]
            for (name, born, sport, skill, km) in cast {
                let browser = app.browser()
                try await browser.signUp(name, birthDate: born)
                people[name] = browser
                let user = try #require(try await User.query(on: app.db).filter(\.$username == name).first())
                user.homeLat = 55.68 + km / 111.2
                user.homeLon = 12.57
                try await user.save(on: app.db)
                try await UserSport(userID: user.requireID(), sport: sport, skill: skill).create(on: app.db)
            }
            let fay = try #require(people["fay"])
            let topics = NotificationTopic.allCases.filter { $0 != .gamesNearby }.map { ("in_app[]", $0.rawValue) }
            #expect(try await fay.post("/settings/notifications", topics, csrfFrom: "/settings/notifications").status == .seeOther)
            func told(_ name: String) async throws -> Int {
                try await people[name]!.get("/notifications").body.components(separatedBy: "pick-up game near you").count - 1
            }

            _ = try await oda.createPickup()
            try await app.app.jobs.runDue(app.app)
            #expect(try await [told("ana"), told("eve")] == [1, 1], "near, the sport, any level")
            #expect(try await [told("ben"), told("cai"), told("kim"), told("fay")] == [0, 0, 0, 0])
            #expect(try await people["ana"]!.get("/notifications").contains("km from home"))

            // A second game the same day: nobody hears twice. A protected one: nobody hears.
            _ = try await oda.createPickup(sport: "volleyball")
            _ = try await oda.createPickup(privacy: "protected")
            try await app.app.jobs.runDue(app.app)
            #expect(try await [told("ana"), told("eve")] == [1, 1])
            // A day later, a public game again.
            app.clock.advance(by: NearbyGameJob.quiet + 60)
            _ = try await oda.createPickup()
            try await app.app.jobs.runDue(app.app)
            #expect(try await [told("ana"), told("eve"), told("kim")] == [2, 2, 0])
            // A game for 12–14-year-olds: Kim, 14, is not told either (anyone may organise one), nor an adult.
            app.clock.advance(by: NearbyGameJob.quiet + 60)
            _ = try await oda.createPickup(age: "12-14")
            try await app.app.jobs.runDue(app.app)
            #expect(try await [told("kim"), told("ana")] == [0, 2])
        }
    }

    /// A place held for someone ends with the game: a cancelled game offers nothing to take, and
    /// its news reaches even someone who turned every topic off. When the organiser makes room
    /// for everyone waiting, all are in at once: an offer is only for a queue longer than the places.
    @Test func offersEndWithTheGameAndRoomForEveryoneNeedsNoOffer() async throws {
        try await withApp { app in
            let organiser = app.browser(), ana = app.browser(), ben = app.browser(), cai = app.browser(), dan = app.browser()
            for (browser, name) in [(organiser, "oda"), (ana, "ana"), (ben, "ben"), (cai, "cai"), (dan, "dan")] { try await browser.signUp(name) }
            // Oda's game has two places, Oda's and Ana's; Ben, Cai and Dan wait.
            let url = try await organiser.createPickup(capacity: 2)
            for browser in [ana, ben, cai, dan] { #expect(try await browser.post("\(url)/join", [], csrfFrom: url).status == .seeOther) }
            #expect(try await ana.post("\(url)/leave", [], csrfFrom: url).status == .seeOther)
            #expect(try await ben.get(url).contains("Take the place"))
            #expect(try await ben.post("/settings/notifications", [], csrfFrom: "/settings/notifications").status == .seeOther, "every topic off")
            #expect(try await organiser.post("\(url)/cancel", [("confirm", "yes")], csrfFrom: url).status == .seeOther)
            let cancelled = try await ben.get(url)
            #expect(!cancelled.contains("Take the place") && cancelled.contains("This game is cancelled"))
            let refused = try await ben.post("\(url)/offer/take", [], csrfFrom: url)
            #expect(refused.status == .conflict && refused.contains("cancelled"))
            #expect(try await ben.get("/notifications").contains("Cancelled: Volleyball pick-up game"), "news of a game you're in always comes")
            app.clock.advance(by: GameRoster.offerHours + 60)
            try await app.app.jobs.runDue(app.app)
            #expect(!(try await ben.get("/notifications").contains("ran out")), "nothing runs out in a cancelled game")

            // A second game, full with two waiting; the organiser makes room for five.
            let second = try await organiser.createPickup(capacity: 2)
            for browser in [ana, ben, cai] { #expect(try await browser.post("\(second)/join", [], csrfFrom: second).status == .seeOther) }
            let edited = try await organiser.post("\(second)/edit", app.pickupFields(capacity: 5), csrfFrom: "\(second)/edit")
            #expect(edited.status == .seeOther, "\(edited.body.prefix(300))")
            for browser in [ben, cai] { #expect(try await browser.get(second).contains("status-joined")) }
            let game = try #require(try await Game.find(UUID(uuidString: String(second.split(separator: "/").last!)), on: app.db))
            #expect(game.joinedCount == 4)
        }
    }

    @Test func aFullGameKeepsAWaitlistThatMovesUpWhenSomeoneLeaves() async throws {
        try await withApp { app in
            let organiser = app.browser(); try await organiser.signUp("organiser", name: "Oda Organiser")
            let url = try await organiser.createPickup(capacity: 2)
            let ana = app.browser(); try await ana.signUp("ana", name: "Ana Ant")
            let ben = app.browser(); try await ben.signUp("ben", name: "Ben Bee")
            let cai = app.browser(); try await cai.signUp("cai", name: "Cai Cat")

            try await ana.post("\(url)/join", [("note", "Can bring a ball")], csrfFrom: url)
            #expect(try await ben.get(url).contains("Join the waitlist"))
            try await ben.post("\(url)/join", [], csrfFrom: url)
            try await cai.post("\(url)/join", [], csrfFrom: url)
            let page = try await cai.get(url)
            #expect(page.contains("number 2 on the waitlist"))
            #expect(page.contains("<strong>2</strong> Joined"))
            #expect(page.contains("<strong>2</strong> Waitlist"))
            #expect(page.contains("2 of 2 places taken"))
            #expect(try await ana.post("\(url)/join", [], csrfFrom: url).status == .conflict)

            // Ana leaves: the place is held for Ben, first in the queue, who is told; Cai moves up to first.
            try await ana.post("\(url)/leave", [], csrfFrom: url)
            var benPage = try await ben.get(url)
            #expect(benPage.contains("status-offered") && benPage.contains("held for you until") && benPage.contains("Take the place"))
            #expect(try await ben.get("/notifications").contains("A place opened up in the volleyball game: it"))
            #expect(try await cai.get(url).contains("number 1 on the waitlist"))
            #expect(!(try await cai.get("/notifications").contains("A place opened up")))
            #expect(try await cai.post("\(url)/offer/take", [], csrfFrom: url).status == .conflict, "only Ben's to take")
            #expect(try await ben.post("\(url)/offer/take", [], csrfFrom: url).status == .seeOther)
            benPage = try await ben.get(url)
            #expect(benPage.contains("status-joined") && !benPage.contains("Take the place"))
            #expect(try await ben.post("\(url)/offer/take", [], csrfFrom: url).status == .conflict, "taken once")

            // The organiser removes Ben: the place is held for Cai, who lets the time run out; it is
            // then free, as nobody else waits.
            try await organiser.post("\(url)/players/ben/remove", [], csrfFrom: url)
            #expect(try await cai.get(url).contains("status-offered"))
            #expect(try await ben.get("/notifications").contains("took you off"))
            #expect(try await ben.post("\(url)/players/cai/remove", [], csrfFrom: url).status == .forbidden)
            var game = try #require(try await Game.query(on: app.db).first())
            #expect(game.joinedCount == 2, "a held place counts as taken")
            app.clock.advance(by: GameRoster.offerHours + 60)
            try await app.app.jobs.runDue(app.app)
            #expect(try await cai.post("\(url)/offer/take", [], csrfFrom: url).status == .conflict)
            #expect(try await cai.get("/notifications").contains("The place held for you in the volleyball game ran out"))
            #expect(try await cai.get(url).contains("Join game"), "Cai is off the list and may join again")
            game = try #require(try await Game.query(on: app.db).first())
            #expect(game.joinedCount == 1)
            #expect(try await cai.post("\(url)/join", [], csrfFrom: url).status == .seeOther)
            #expect(try await cai.get(url).contains("status-joined"))

            // Cancelling tells everyone on the list, and the page says so.
            try await organiser.post("\(url)/cancel", [("confirm", "yes")], csrfFrom: url)
            #expect(try await cai.get("/notifications").contains("Cancelled: Volleyball pick-up game"))
            #expect(try await cai.get(url).contains("This game is cancelled"))
            #expect(try await ana.post("\(url)/join", [], csrfFrom: url).status == .conflict)
        }
    }

    @Test func theCapacityHoldsWhenManyJoinAtOnce() async throws {
        try await withApp { app in
            let organiser = app.browser(); try await organiser.signUp("organiser")
            let url = try await organiser.createPickup(capacity: 4)
            var joiners: [Browser] = []
            for index in 0..<10 {
                let browser = app.browser(); try await browser.signUp("joiner\(index)")
                _ = try await browser.get(url)
                joiners.append(browser)
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for browser in joiners { group.addTask { try await browser.post("\(url)/join", [], csrfFrom: url).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == joiners.count && statuses.allSatisfy { $0 == .seeOther })
            let players = try await GamePlayer.query(on: app.db).all()
            #expect(players.filter { $0.status == .joined }.count == 4, "the organiser and exactly three others")
            #expect(players.filter { $0.status == .waitlisted }.count == 7)
            #expect(try #require(try await Game.query(on: app.db).first()).joinedCount == 4)
        }
    }

    @Test func aProtectedGameShowsOnlyTheAreaUntilTheOrganiserAccepts() async throws {
        try await withApp { app in
            let organiser = app.browser(); try await organiser.signUp("organiser")
            let url = try await organiser.createPickup(privacy: "protected", lat: "55.6812", lon: "12.5734", place: "Secret Courts")
            let ana = app.browser(); try await ana.signUp("ana", name: "Ana Ant")

            let found = try await ana.get("/find?lat=55.68&lon=12.57&radius_km=10")
            #expect(found.contains(url))
            #expect(found.contains("(approximate)"))
            #expect(!found.contains("Secret Courts"))
            let api = try await ana.get("/api/v1/find?lat=55.68&lon=12.57&radius_km=10")
            #expect(api.contains("\"latitude\":55.7"))
            #expect(!api.contains("55.6812"))
            #expect(!api.contains("Secret Courts"))

            #expect(!(try await ana.get(url).contains("Secret Courts")))
            #expect(try await ana.get(url).contains("Ask to join"))
            try await ana.post("\(url)/join", [("note", "Played in school")], csrfFrom: url)
            #expect(try await organiser.get("/notifications").contains("Ana Ant asked to join"))
            let waiting = try await ana.get(url)
            #expect(waiting.contains("Asked to join"))
            #expect(!waiting.contains("Secret Courts"))
            #expect(!waiting.contains("Bring water"), "the organiser's notes follow the place's rule")

            // Every list that shows the game follows the game page's rule: the area, not the place.
            let settings = try await ana.get("/settings/calendar")
            let feedURL = try #require(settings.firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#))
            let myGames = try await ana.get("/games")
            #expect(myGames.contains("Waiting for you or for others"))
            #expect(myGames.contains(url))
            #expect(myGames.contains("Around 55.7, 12.6 (the exact place is shown once you&#39;re in)"))
            for (name, page) in [("my games", myGames), ("home", try await ana.get("/")), ("calendar feed", try await app.browser().get(feedURL))] {
                #expect(!page.contains("Secret Courts"), "\(name) gives the place away")
                #expect(!page.contains("55.6812"), "\(name) gives the pin away")
                #expect(!page.contains("Bring water"), "\(name) shows the organiser's notes")
            }
            // A move is announced to her without the new place.
            #expect(
                try await organiser.post(
                    "\(url)/edit", app.pickupFields(privacy: "protected", days: 4, lat: "55.6812", lon: "12.5734", place: "Secret Courts West"),
                    csrfFrom: "\(url)/edit"
                ).status == .seeOther)
            let moved = try await ana.get("/notifications")
            #expect(moved.contains("moved to"))
            #expect(!moved.contains("Secret Courts"))

            try await organiser.post("\(url)/players/ana/approve", [], csrfFrom: url)
            let told = try await ana.get("/notifications")
            #expect(told.contains("You&#39;re in") || told.contains("You're in"))
            #expect(try await ana.get(url).contains("Secret Courts"))
            #expect(try await ana.get(url).contains("Bring water"))
            #expect(try await ana.get("/games").contains("Secret Courts West"))
            #expect(try await ana.get("/").contains("Secret Courts West"))
            #expect(try await app.browser().get(feedURL).contains("Secret Courts West"))
        }
    }

    @Test func ageGroupsAreKeptForPlayers() async throws {
        try await withApp { app in
            let coach = app.browser(); try await coach.signUp("coach")
            let url = try await coach.createPickup(age: "12-14")
            let adult = app.browser(); try await adult.signUp("adult", birthDate: "1980-01-01")
            let denied = try await adult.post("\(url)/join", [], csrfFrom: url)
            #expect(denied.status == .forbidden)
            #expect(denied.contains("This game is for the age group"))
            let teen = app.browser()
            let year = Calendar(identifier: .gregorian).component(.year, from: app.clock.now) - 14 // 14 from 1 January on
            try await teen.signUp("teen", birthDate: "\(year)-01-01")
            #expect(try await teen.post("\(url)/join", [], csrfFrom: url).status == .seeOther)
        }
    }

    @Test func privateTeamGamesExistOnlyForMembers() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "private")
            let url = try await cast.manager.createTeamGame(team: cast.slug)
            for (name, browser) in cast.everyone {
                let status = try await browser.get(url).status
                let member = ["player", "coach", "manager", "owner"].contains(name)
                #expect(status == (member ? .ok : .notFound), "\(name) got \(status)")
            }
            let subs = try await cast.manager.post("\(url)/subs", [("count", "2")], csrfFrom: url)
            #expect(subs.status == .unprocessableEntity)
            // Force an open request in the database: it must still never be listed.
            let game = try #require(try await Game.query(on: app.db).first())
            game.subsNeeded = 3
            try await game.update(on: app.db)
            for (name, browser) in cast.everyone {
                #expect(!(try await browser.get("/find?lat=55.68&lon=12.57&radius_km=50").contains(url)), "\(name) found it")
                #expect(
                    !(try await browser.get("/api/v1/find?lat=55.68&lon=12.57&radius_km=50").contains(game.id!.uuidString.lowercased())),
                    "\(name) found it in the API")
            }
            #expect(try await cast.stranger.post("\(url)/subs/claim", [], csrfFrom: "/").status == .notFound)
            #expect(!(try await cast.stranger.get("/notifications").contains("New game")))
            #expect(!(try await cast.invitee.get("/notifications").contains("New game")))
            #expect(!(try await cast.stranger.get("/games").contains(url)))
            #expect(try await cast.player.get("/games").contains(url))
            #expect(!(try await cast.stranger.get("/teams/\(cast.slug)").contains(url)))
        }
    }

    @Test func findFiltersByDateAndTheAPIAnswersInJSON() async throws {
        try await withApp { app in
            let organiser = app.browser(); try await organiser.signUp("organiser")
            let soon = try await organiser.createPickup(days: 1)
            let later = try await organiser.createPickup(days: 10, lat: "55.70", lon: "12.60")
            let searcher = app.browser()
            let all = try await searcher.get("/find?lat=55.68&lon=12.57&radius_km=25")
            #expect(all.contains(soon) && all.contains(later))
            let near = try #require(all.body.range(of: soon)), far = try #require(all.body.range(of: later))
            #expect(near.lowerBound < far.lowerBound, "nearest first")
            let window = try await searcher.get("/find?lat=55.68&lon=12.57&radius_km=25&from=\(app.gameDay(5).day)&to=\(app.gameDay(15).day)")
            #expect(window.contains(later) && !window.contains(soon))

            // "Tomorrow", soonest first: a game tomorrow farther out comes before one nearer later on.
            let tomorrowFar = try await organiser.createPickup(days: 1, lat: "55.75", lon: "12.65")
            let byTime = try await searcher.get("/find?lat=55.68&lon=12.57&radius_km=25&sort=time")
            let first = try #require(byTime.body.range(of: tomorrowFar)), second = try #require(byTime.body.range(of: later))
            #expect(first.lowerBound < second.lowerBound, "soonest first")
            #expect(byTime.contains(#"<option value="time" selected>"#))
            let clock = LocalTime.parts(of: app.clock.now, zone: "UTC").time
            if clock < "19:30" { // the games start at 19:30 tomorrow; "tomorrow" is a whole day in UTC
                let tomorrow = try await searcher.get("/find?lat=55.68&lon=12.57&radius_km=25&when=tomorrow")
                #expect(tomorrow.contains(tomorrowFar) && tomorrow.contains(soon) && !tomorrow.contains(later))
            }
            let weekend = try await searcher.get("/find?lat=55.68&lon=12.57&radius_km=25&when=someday")
            #expect(weekend.status == .unprocessableEntity && weekend.contains("Choose a day from the list"))

            let json = try await searcher.get("/api/v1/find?lat=55.68&lon=12.57&radius_km=25&sport=volleyball")
            #expect(json.status == .ok)
            #expect(json.headers.contentType == .json)
            struct Answer: Decodable {
                struct Result: Decodable { let id: String; let starts_at: String; let distance_metres: Int; let full: Bool; let exact_place: Bool }
                let results: [Result]
            }
            let answer = try JSONDecoder().decode(Answer.self, from: Data(json.body.utf8))
            #expect(answer.results.count == 3)
            #expect(answer.results[0].distance_metres == 0)
            #expect(answer.results[0].starts_at.hasSuffix("Z"))
            #expect(answer.results.allSatisfy { $0.exact_place && !$0.full })

            let bad = try await searcher.get("/api/v1/find?lat=120&lon=12&radius_km=0&sport=chess&from=tomorrow")
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.contains("Choose a distance between 1 and 200 km"))
            #expect(bad.contains("Enter a date such as"))
            #expect(try await searcher.get("/api/v1/find").status == .unprocessableEntity)
        }
    }

    /// The search looks in a small circle first and widens it only when the page is not full: the
    /// pages must be exactly those of the whole circle, nearest first, with nothing lost between them.
    @Test func findPagesAreTheWholeCirclesNearestFirst() async throws {
        try await withApp { app in
            let organiser = app.browser(); try await organiser.signUp("organiser")
            // 22 games 0–1 km east of the searcher and one ~3 km north, beyond the first circle.
            for index in 0..<22 {
                _ = try await organiser.createPickup(days: 1 + Double(index) / 24, lon: String(format: "%.4f", 12.57 + Double(index) * 0.0007))
            }
            let far = try await organiser.createPickup(days: 2, lat: "55.707", lon: "12.57")
            struct Answer: Decodable {
                struct Result: Decodable { let url: String; let distance_metres: Int }
                let results: [Result]
            }
            func page(_ number: Int) async throws -> [Answer.Result] {
                let answer = try await app.browser().get("/api/v1/find?lat=55.68&lon=12.57&radius_km=50&page=\(number)")
                return try JSONDecoder().decode(Answer.self, from: Data(answer.body.utf8)).results
            }
            let first = try await page(1), second = try await page(2)
            #expect(first.count == 20 && second.count == 3)
            let all = first + second
            #expect(Set(all.map(\.url)).count == 23)
            #expect(all.map(\.distance_metres) == all.map(\.distance_metres).sorted(), "nearest first across pages")
            #expect(all.last?.url == far)
            #expect(first.allSatisfy { $0.distance_metres <= 1_000 })
        }
    }

    @Test func theCalendarFeedIsStrictValidICalendarAndFollowsChanges() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let teamGame = try await cast.manager.createTeamGame(team: cast.slug, opponent: "Old Town, Reserves; B")
            let organiser = app.browser(); try await organiser.signUp("organiser")
            let pickup = try await organiser.createPickup(place: "Beach, net 3")
            try await cast.player.post("\(pickup)/join", [], csrfFrom: pickup)
            try await cast.player.post("\(teamGame)/rsvp", [("status", "maybe")], csrfFrom: teamGame)

            let settings = try await cast.player.get("/settings/calendar")
            let feedURL = try #require(settings.firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#))
            let feed = try await app.browser().get(feedURL)
            #expect(feed.status == .ok)
            #expect(feed.headers.first(name: .contentType)?.hasPrefix("text/calendar") == true)
            let events = StrictICS.parse(feed.body)
            #expect(events.count == 2)
            let team = try #require(events.first { $0["SUMMARY"]?.value.hasPrefix("Matrix United") == true })
            #expect(StrictICS.unescape(team["SUMMARY"]!.value) == "Matrix United vs. Old Town, Reserves; B")
            #expect(team["LOCATION"]?.value == "Riverside Hall")
            #expect(team["GEO"]?.value == "55.680000;12.570000")
            #expect(StrictICS.unescape(team["DESCRIPTION"]!.value).contains("Your answer: Maybe"))
            #expect(team["SEQUENCE"]?.value == "0")
            let uid = try #require(team["UID"]?.value)

            // Moving the game keeps the UID and bumps SEQUENCE; cancelling marks it cancelled.
            let when = app.gameDay(4)
            try await cast.manager.post(
                "\(teamGame)/edit",
                [
                    ("day", when.day), ("time", "18:00"), ("time_zone", "UTC"), ("duration_minutes", "60"),
                    ("place_name", "Riverside Hall"), ("latitude", "55.68"), ("longitude", "12.57"),
                ], csrfFrom: "\(teamGame)/edit")
            try await organiser.post("\(pickup)/cancel", [("confirm", "yes")], csrfFrom: pickup)
            let again = StrictICS.parse(try await app.browser().get(feedURL).body)
            let moved = try #require(again.first { $0["UID"]?.value == uid })
            #expect(moved["SEQUENCE"]?.value == "1")
            #expect(moved["STATUS"]?.value == "CONFIRMED")
            let cancelled = try #require(again.first { $0["UID"]?.value != uid })
            #expect(cancelled["STATUS"]?.value == "CANCELLED")
            #expect(Int(cancelled["SEQUENCE"]?.value ?? "") == 1)

            // The team feed lists only that team's games, and only for members.
            let teamFeed = StrictICS.parse(try await app.browser().get("\(feedURL)?team=\(cast.slug)").body)
            #expect(teamFeed.count == 1)
            let strangerSettings = try await cast.stranger.get("/settings/calendar")
            let strangerFeed = try #require(strangerSettings.firstMatch(#"id="feed" readonly value="[^"]*(/calendar/[^"]+\.ics)""#))
            #expect(StrictICS.parse(try await app.browser().get(strangerFeed).body).isEmpty, "nothing of a team they are not in")
            #expect(try await app.browser().get("\(strangerFeed)?team=\(cast.slug)").status == .notFound)

            // A new address stops the old one at once.
            try await cast.player.post("/settings/calendar/reset", [], csrfFrom: "/settings/calendar")
            #expect(try await app.browser().get(feedURL).status == .notFound)
            #expect(try await app.browser().get("/calendar/not-a-token.ics").status == .notFound)
        }
    }

    @Test func demoDataHasGamesWithAnswersAWaitlistAndASubstituteRequest() async throws {
        try await withApp { app in
            _ = try await DemoPeople.seed(app: app.app)
            _ = try await DemoTeams.seed(app: app.app)
            let first = try await DemoGames.seed(app: app.app)
            #expect(first > 0)
            #expect(try await DemoGames.seed(app: app.app) == 0)
            let games = try await Game.query(on: app.db).all()
            #expect(games.contains { $0.startsAt < app.clock.now && $0.homeScore != nil })
            #expect(games.contains { $0.kind == .pickup && $0.isFull })
            #expect(games.contains { $0.subsOpen && $0.startsAt > app.clock.now })
            #expect(try await GamePlayer.query(on: app.db).filter(\.$status == .waitlisted).count() > 0)
            let maya = app.browser()
            try await maya.logIn("maya", password: "fieldhouse-demo")
            #expect(try await maya.get("/games").contains("Upcoming"))
        }
    }
}
