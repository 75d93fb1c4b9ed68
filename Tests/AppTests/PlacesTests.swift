@testable import App
import FieldhouseKit
import Fluent
import SQLKit
import Foundation
import Testing
import Vapor

/// Places, routes and rewards for arriving by bike, through the real pages and the device API.
@Suite("Places, routes and rewards")
struct PlacesTests {
    /// An admin adds a café managed by `manager`, with a reward of `cap` a day; returns its path.
    static func café(_ app: TestApp, admin: Browser, manager: String, cap: Int = 30) async throws -> String {
        let place = try #require(
            try await admin.post(
                "/places/new",
                [
                    ("name", "Kaffe & Kæde"), ("kind", "cafe"), ("latitude", "55.6760"), ("longitude", "12.5690"), ("radius_m", "60"),
                    ("time_zone", "UTC"), ("managers", manager), ("sports[]", "cycling"),
                ], csrfFrom: "/places/new"
            ).location)
        let offer = try await admin.post(place + "/reward", [("reward_text", "10 % off by bike"), ("daily_cap", String(cap))], csrfFrom: place + "/reward")
        #expect(offer.status == .seeOther)
        // The manager says yes to the invitation (the asking itself is tested in `managersAreAsked…`).
        try await PlaceManager.query(on: app.db).set(\.$accepted, to: true).update()
        return place
    }

    /// Motion readings one a minute from `from` (ms), as a phone sends them.
    static func motion(_ activity: String, from: Int64, minutes: Int, every seconds: Int64 = 60) -> String {
        let readings = (0..<minutes).map { #"{"t": \#(from + Int64($0) * seconds * 1000), "activity": "\#(activity)", "confidence": 90}"# }
        return #"{"motion": [\#(readings.joined(separator: ","))]}"#
    }

    /// A ride sent live, as a phone sends one: positions every 10 s at `speed` m/s (5: 18 km/h) from
    /// the north into the café (55.6760, 12.5690), in a batch a minute, the app's clock moving on a
    /// minute between batches, the last position at the door `stopShortBy` metres short of it.
    static func rideLive(
        _ app: TestApp, _ browser: Browser, token: String, alsoRiding others: [String] = [], minutes: Int = 12, speed: Double = 5,
        stopShortBy metres: Double = 0
    ) async throws {
        for minute in 0..<minutes {
            let end = app.clock.milliseconds
            let readings = (0..<6).map { step in
                let left = (minutes - minute - 1) * 6 + (5 - step) // positions still to come after this one
                let north = Double(left) * 10 * speed + metres
                return #"{"t": \#(end - Int64(5 - step) * 10_000), "lat": \#(55.6760 + north / 111_320), "lon": 12.5690, "accuracy": 5}"#
            }
            for rider in [token] + others {
                let sent = try await browser.api(.POST, "/api/v1/samples", token: rider, json: #"{"locations": [\#(readings.joined(separator: ","))]}"#)
                #expect(sent.status.code < 400, "\(sent.body.prefix(300))")
            }
            if minute < minutes - 1 { app.clock.advance(by: 60) }
        }
    }

    /// The same positions all at once, at the door: no ride behind them as far as the site can tell.
    static func rideInOneBatch(_ app: TestApp, _ browser: Browser, token: String, minutes: Int = 12, speed: Double = 5) async throws {
        let end = app.clock.milliseconds, count = minutes * 6
        let readings = (0...count).map { index in
            #"{"t": \#(end - Int64(count - index) * 10_000), "lat": \#(55.6760 + Double(count - index) * 10 * speed / 111_320), "lon": 12.5690}"#
        }
        _ = try await browser.api(.POST, "/api/v1/samples", token: token, json: #"{"locations": [\#(readings.joined(separator: ","))]}"#)
    }

    /// What the site knows of a confirmed address, without the mail round trip.
    static func confirmAddress(_ app: TestApp, _ username: String) async throws {
        try await User.query(on: app.db).filter(\.$username == username).set(\.$emailConfirmedAt, to: app.clock.now).update()
    }

    /// Turns rewards on through the page, as a person does.
    static func turnOnRewards(_ browser: Browser) async throws {
        #expect(try await browser.post("/rewards/settings", [("enabled", "on")], csrfFrom: "/rewards").status == .seeOther)
    }

    static func states(_ app: TestApp, _ username: String) async throws -> [String] {
        let user = try #require(try await User.query(on: app.db).filter(\.$username == username).first())
        return try await CyclingTransition.query(on: app.db).filter(\.$user.$id == user.requireID()).sort(\.$atMS).all().map(\.to)
    }

    /// A place is found by typing its name: places on the map, public teams' grounds, one's own
    /// home area and towns; never a private team's ground or someone else's home.
    @Test func typingAPlaceFindsItWithoutCoordinates() async throws {
        try await withApp { app in
            let admin = app.browser(), ana = app.browser(), bo = app.browser()
            try await admin.signUp("adam")
            try await ana.signUp("ana")
            try await bo.signUp("bodil")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            _ = try await Self.café(app, admin: admin, manager: "ana")
            let ground = [("latitude", "55.70"), ("longitude", "12.55")]
            _ = try await ana.createTeam("Open FC", privacy: "public", extra: [("place_name", "Kaffe Park Pitch")] + ground)
            _ = try await ana.createTeam("Quiet FC", privacy: "private", extra: [("place_name", "Kaffe Secret Pitch")] + ground)
            #expect(try await bo.saveProfile(["home_name": "Kaffebjerg", "home_lat": "55.61", "home_lon": "12.50"]).status == .seeOther)

            struct Answer: Decodable {
                struct Result: Decodable { let name, detail: String; let latitude, longitude: Double }
                let results: [Result]
            }
            func search(_ browser: Browser, _ text: String) async throws -> [Answer.Result] {
                let page = try await browser.get("/places/search?q=" + text)
                #expect(page.status == .ok && page.headers.first(name: .cacheControl) == "private, max-age=300")
                return try JSONDecoder().decode(Answer.self, from: Data(page.body.utf8)).results
            }
            let kaffe = try await search(bo, "kaffe")
            #expect(kaffe.map(\.name).contains("Kaffe & Kæde") && kaffe.contains { $0.detail == "place on Fieldhouse" })
            #expect(kaffe.contains { $0.name == "Kaffe Park Pitch" && $0.detail == "ground of Open FC" })
            #expect(kaffe.first?.name == "Kaffebjerg" && kaffe.first?.detail == "your home area", "one's own home area first")
            #expect(!kaffe.contains { $0.name.contains("Secret") }, "a private team's ground is its members' business")
            #expect(!(try await search(ana, "kaffe")).contains { $0.name == "Kaffebjerg" }, "nobody else's home area")
            // Towns, by any of their names, accents and case aside.
            let lisboa = try await search(app.browser(), "LISBOA")
            #expect(lisboa.first?.name == "Lisbon" && lisboa.first?.detail == "Portugal")
            #expect((try await search(app.browser(), "sao joao da madeira")).contains { $0.name == "São João da Madeira" })
            #expect(try await search(app.browser(), "%_").isEmpty)

            // /find takes the typed name (no script needed) and shows the place it found.
            let near = try await bo.get("/find?place=Lisboa&radius_km=10")
            #expect(near.status == .ok && near.contains(#"value="Lisbon, Portugal""#) && near.contains(#"value="38.72509""#))
            let nowhere = try await bo.get("/find?place=Qqxyzzy")
            #expect(nowhere.status == .unprocessableEntity && nowhere.contains("No place called “Qqxyzzy” was found"))

            // A privacy zone by a town's name, and a name that is nowhere kept beside its field.
            let zone = try await bo.post(
                "/settings/privacy-zones", [("name", "Grandma"), ("place", "Lisboa"), ("lat", ""), ("lon", ""), ("radius", "500")],
                csrfFrom: "/settings/privacy-zones")
            #expect(zone.status == .seeOther)
            let saved = try #require(try await SavedPrivacyZone.query(on: app.db).first())
            #expect(abs(saved.latitude - 38.72509) < 0.0001 && abs(saved.longitude + 9.1498) < 0.0001)
            let lost = try await bo.post(
                "/settings/privacy-zones", [("name", "Nowhere"), ("place", "Qqxyzzy"), ("lat", ""), ("lon", ""), ("radius", "500")],
                csrfFrom: "/settings/privacy-zones")
            #expect(lost.status == .unprocessableEntity && lost.contains(#"id="place-error""#) && lost.contains(#"value="Qqxyzzy""#))
        }
    }

    @Test func cyclingTwentyMinutesEarnsACodeThePlaceRedeemsOnce() async throws {
        try await withApp { app in
            let admin = app.browser(), rider = app.browser(), barista = app.browser()
            try await admin.signUp("adam")
            try await rider.signUp("rita", name: "Rita Rider", birthDate: app.clock.today.adding(days: -15 * 366).description)
            try await barista.signUp("bea")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            let place = try await Self.café(app, admin: admin, manager: "bea")
            let token = try await rider.deviceToken(named: "Phone", allDay: false)
            let start = app.clock.milliseconds - 40 * 60_000
            let inside = [("latitude", "55.6761"), ("longitude", "12.5691")]

            // Rewards are off until Rita turns them on: her readings are not looked at.
            #expect(try await rider.get("/rewards").contains("Rewards are off"))
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: Self.motion("cycling", from: start - 20 * 60_000, minutes: 15))
            #expect(try await Self.states(app, "rita") == [])
            _ = try await rider.post(place + "/checkin", inside, csrfFrom: place)
            #expect(try await rider.get(place).contains("Rewards are off for you"))
            try await Self.turnOnRewards(rider)

            // Not cycling yet: no code.
            #expect(try await rider.get("/rewards").contains("Not cycling"))
            _ = try await rider.post(place + "/checkin", inside, csrfFrom: place)
            #expect(try await rider.get(place).contains("shown you cycling for 10 minutes today"))

            // Two cycling readings are not yet a run; the third is.
            #expect(try await rider.api(.POST, "/api/v1/samples", token: token, json: Self.motion("cycling", from: start, minutes: 2)).status != .badRequest)
            #expect(try await Self.states(app, "rita") == [])
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: Self.motion("cycling", from: start + 120_000, minutes: 1))
            #expect(try await Self.states(app, "rita") == ["cycling_ineligible"])
            #expect(try await rider.get("/rewards").contains("Cycling, not long enough yet"))

            // Twenty minutes on the bike: eligible, and told so.
            let ride = Self.motion("cycling", from: start + 180_000, minutes: 18)
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: ride)
            #expect(try await Self.states(app, "rita") == ["cycling_ineligible", "cycling_eligible"])
            #expect(try await rider.get("/notifications").contains("check in at a partner place today"))
            // The same batch again changes nothing.
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: ride)
            #expect(try await Self.states(app, "rita") == ["cycling_ineligible", "cycling_eligible"])

            // The phone's positions show the ride to the door; her address is confirmed.
            try await Self.confirmAddress(app, "rita")
            try await Self.rideLive(app, rider, token: token)
            // Too far away, then there.
            _ = try await rider.post(place + "/checkin", [("latitude", "55.6800"), ("longitude", "12.5690")], csrfFrom: place)
            #expect(try await rider.get(place).contains("check in within 60 m"))
            let checkin = try await rider.post(place + "/checkin", inside, csrfFrom: place)
            #expect(checkin.location == "/rewards")
            let rewards = try await rider.get("/rewards")
            let code = try #require(rewards.firstMatch(#"<strong class="code-text">([A-Z0-9]{8})</strong>"#))
            #expect(rewards.contains("Show it at the counter today"))
            #expect(rewards.contains("<svg class=\"reward-code\""))
            _ = try await rider.post(place + "/checkin", inside, csrfFrom: place)
            #expect(try await rider.get(place).contains("You already have today"))

            // The café redeems it once, even when two counters try at the same moment; it never sees who.
            let redeem = place + "/redeem"
            #expect(try await rider.get(redeem).status == .notFound, "a customer cannot open the counter")
            async let first = barista.post(redeem, [("code", code.lowercased())], csrfFrom: redeem)
            async let second = barista.post(redeem, [("code", code)], csrfFrom: redeem)
            let answers = try await [first, second]
            #expect(answers.filter { $0.status == .ok && $0.contains("Redeemed \(code)") }.count == 1)
            #expect(answers.filter { $0.status == .conflict && $0.contains("already redeemed") }.count == 1)
            let counter = try await barista.get(redeem)
            #expect(counter.contains(code) && counter.contains("1 codes earned"))
            #expect(!counter.contains("Rita") && !counter.contains("rita"), "a place sees codes and counts, never names")
            #expect(try await barista.post(redeem, [("code", "ZZZZZZZZ")], csrfFrom: redeem).status == .unprocessableEntity)
            #expect(try await barista.post(redeem, [("code", "<script>")], csrfFrom: redeem).status == .unprocessableEntity)
            #expect(try await rider.get("/rewards").contains("Redeemed"))

            // Turning rewards off deletes what the readings showed.
            #expect(try await rider.post("/rewards/settings", [("enabled", "off")], csrfFrom: "/rewards").status == .seeOther)
            #expect(try await Self.states(app, "rita") == [])
            #expect(try await rider.get("/rewards").main.contains("Rewards are off"))
        }
    }

    /// Issue 41, scenario 10: motion labels alone, a fresh account, a car, a walk or a ride that ends
    /// elsewhere earn nothing; only positions that ride to the door do.
    @Test func rewardsCannotBeFarmedWithoutRidingThere() async throws {
        try await withApp { app in
            let admin = app.browser(), rider = app.browser()
            try await admin.signUp("adam")
            try await rider.signUp("fay")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            let place = try await Self.café(app, admin: admin, manager: "adam")
            let id = String(place.split(separator: "/").last!)
            let token = try await rider.deviceToken(named: "Phone", allDay: false)
            try await Self.turnOnRewards(rider)
            _ = try await rider.api(
                .POST, "/api/v1/samples", token: token, json: Self.motion("cycling", from: app.clock.milliseconds - 30 * 60_000, minutes: 15))
            let body = #"{"place": "\#(id)", "lat": 55.6760, "lon": 12.5690}"#
            func attempt() async throws -> String? {
                let answer = try await rider.api(.POST, "/api/v1/checkins", token: token, json: body)
                return answer.status == .created ? "rewarded" : (answer.json["error"] as? [String: Any])?["code"] as? String
            }
            // The motion labels say cycling, but the account is an hour old and unconfirmed.
            #expect(try await attempt() == "new_account")
            try await Self.confirmAddress(app, "fay")
            // Labels alone: no positions of a ride.
            #expect(try await attempt() == "no_ride")
            // A whole ride sent at the door in one go: nothing shows it was ridden.
            try await Self.rideInOneBatch(app, rider, token: token)
            #expect(try await attempt() == "no_ride")
            // A walk to the door (1.4 m/s), a drive (20 m/s), a ride that stops 500 m short.
            try await RideFixesReset.of("fay", app)
            try await Self.rideLive(app, rider, token: token, speed: 1.4)
            #expect(try await attempt() == "not_a_ride")
            try await RideFixesReset.of("fay", app)
            try await Self.rideLive(app, rider, token: token, speed: 20)
            #expect(try await attempt() == "vehicle")
            try await RideFixesReset.of("fay", app)
            try await Self.rideLive(app, rider, token: token, stopShortBy: 500)
            #expect(try await attempt() == "not_here")
            // Riding to the door earns the code.
            try await RideFixesReset.of("fay", app)
            try await Self.rideLive(app, rider, token: token)
            #expect(try await attempt() == "rewarded")
            #expect(try await RewardCode.query(on: app.db).count() == 1)
            // Three codes a day in all, however many partners are at the door.
            var more: [String?] = []
            for _ in 0..<3 {
                let next = String(try await Self.café(app, admin: admin, manager: "adam").split(separator: "/").last!)
                let answer = try await rider.api(.POST, "/api/v1/checkins", token: token, json: #"{"place": "\#(next)", "lat": 55.6760, "lon": 12.5690}"#)
                more.append(answer.status == .created ? "rewarded" : (answer.json["error"] as? [String: Any])?["code"] as? String)
            }
            #expect(more == ["rewarded", "rewarded", "daily_limit"], "\(more)")
        }
    }

    /// Issue 41, scenario 7: the form does not tell a private person from nobody, and nobody
    /// becomes a manager (with the counter and its codes) without saying yes.
    @Test func managersAreAskedAndPrivatePeopleStayUnknown() async throws {
        try await withApp { app in
            let admin = app.browser(), pat = app.browser(), quinn = app.browser()
            try await admin.signUp("adam")
            try await pat.signUp("pat", name: "Pat Barista")
            try await quinn.signUp("quinn")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            #expect(try await quinn.post("/settings/privacy", [("visibility", "private")], csrfFrom: "/settings/privacy").status == .seeOther)
            func add(_ managers: String) async throws -> Browser.Page {
                try await admin.post(
                    "/places/new",
                    [
                        ("name", "Corner Café"), ("kind", "cafe"), ("latitude", "55.6760"), ("longitude", "12.5690"), ("radius_m", "60"),
                        ("time_zone", "UTC"), ("managers", managers),
                    ], csrfFrom: "/places/new")
            }
            let hidden = try await add("quinn"), nobody = try await add("nobody_at_all")
            #expect(hidden.status == .unprocessableEntity && hidden.contains("No one 16 or over is called quinn"))
            #expect(nobody.status == .unprocessableEntity && nobody.contains("No one 16 or over is called nobody_at_all"))
            let place = try #require(try await add("pat").location)
            // Asked, not yet a manager: no counter, no reward form.
            #expect(try await pat.get("/notifications").contains("Adam asked you to help manage Corner Café"))
            #expect(try await pat.get(place + "/redeem").status == .notFound)
            #expect(try await pat.get(place + "/reward").status == .notFound)
            #expect(try await pat.get(place).contains("You were asked to help manage this place"))
            #expect(try await quinn.post(place + "/manage/accept", [], csrfFrom: place).status == .notFound, "only the person asked answers")
            #expect(try await pat.post(place + "/manage/accept", [], csrfFrom: place).status == .seeOther)
            #expect(try await pat.get(place + "/redeem").status == .ok)
            #expect(!(try await pat.get(place).contains("You were asked to help manage this place")))
        }
    }

    @Test func stoppingStaysEligibleUntilTheDayEndsAndAVehicleEndsIt() async throws {
        try await withApp { app in
            let rider = app.browser()
            try await rider.signUp("rob")
            try await Self.turnOnRewards(rider)
            let token = try await rider.deviceToken(named: "Phone", allDay: false)
            let start = app.clock.milliseconds - 20 * 60_000
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: Self.motion("cycling", from: start, minutes: 12))
            #expect(try await Self.states(app, "rob") == ["cycling_ineligible", "cycling_eligible"])
            // Three walking readings: still eligible until the end of the day.
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: Self.motion("walking", from: start + 12 * 60_000, minutes: 3))
            #expect(try await Self.states(app, "rob").last == "unknown_eligible")
            // A car: in a vehicle; two non-vehicle readings are not enough, three bring it back.
            let car = try await rider.api(.POST, "/api/v1/samples", token: token, json: Self.motion("automotive", from: start + 15 * 60_000, minutes: 3))
            #expect(car.status == .created || car.status == .ok, "\(car.body)")
            let afterCar = try await Self.states(app, "rob")
            #expect(afterCar.last == "vehicular", "\(afterCar)")
            _ = try await rider.api(
                .POST, "/api/v1/samples", token: token, json: Self.motion("walking", from: start + 17 * 60_000 + 20_000, minutes: 3, every: 20))
            #expect(try await Self.states(app, "rob").last == "unknown_eligible", "a misread vehicle returns where it was")
            // Speeds no bike reaches, from locations: a vehicle again, and five quiet minutes end eligibility.
            let fast = (0..<3).map { #"{"t": \#(start + 19 * 60_000 + Int64($0) * 5000), "lat": 55.68, "lon": \#(12.57 + Double($0) * 0.001), "speed": 25}"# }
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: #"{"locations": [\#(fast.joined(separator: ","))]}"#)
            #expect(try await Self.states(app, "rob").last == "vehicular")
            #expect(try await rider.get("/rewards").contains("In a vehicle"))
            app.clock.advance(by: 5 * 60)
            #expect(try await rider.get("/rewards").contains("Not cycling"), "five minutes without a sign otherwise")
            #expect(try await Self.states(app, "rob").last == "ineligible")

            // Eligible again on a later ride, then the day ends.
            app.clock.advance(by: 20 * 60)
            let later = app.clock.milliseconds - 15 * 60_000
            _ = try await rider.api(.POST, "/api/v1/samples", token: token, json: Self.motion("cycling", from: later, minutes: 12))
            #expect(try await Self.states(app, "rob").last == "cycling_eligible")
            app.clock.advance(by: 13 * 3600)
            let page = try await rider.get("/rewards")
            #expect(page.contains("the day ended"))
            #expect(try await Self.states(app, "rob").last == "ineligible")
        }
    }

    @Test func checkInRefusalsThroughTheDeviceAPIAndTheDailyCap() async throws {
        try await withApp { app in
            let admin = app.browser(), ann = app.browser(), bo = app.browser()
            try await admin.signUp("adam")
            try await ann.signUp("ann")
            try await bo.signUp("bob")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            let place = try await Self.café(app, admin: admin, manager: "adam", cap: 1)
            let id = String(place.split(separator: "/").last!)
            let start = app.clock.milliseconds - 30 * 60_000
            var tokens: [String] = []
            for browser in [ann, bo] {
                let token = try await browser.deviceToken(named: "Phone", allDay: false)
                try await Self.turnOnRewards(browser)
                tokens.append(token)
            }
            let body = #"{"place": "\#(id)", "lat": 55.6760, "lon": 12.5690}"#
            let early = try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: body)
            #expect(early.status == .unprocessableEntity)
            #expect((early.json["error"] as? [String: Any])?["code"] as? String == "not_eligible")
            for token in tokens {
                _ = try await ann.api(.POST, "/api/v1/samples", token: token, json: Self.motion("cycling", from: start, minutes: 15))
            }
            // Both ride there together.
            try await Self.rideLive(app, ann, token: tokens[0], alsoRiding: [tokens[1]])
            for name in ["ann", "bob"] { try await Self.confirmAddress(app, name) }
            #expect(try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: "{\"place\": 5}").status == .badRequest)
            #expect(try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: "{oops").status == .badRequest)
            #expect(
                try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: #"{"place": "\#(UUID())", "lat": 1, "lon": 1}"#).status == .notFound)
            #expect(
                try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: #"{"place": "\#(id)", "lat": 95, "lon": 1}"#).status
                    == .unprocessableEntity)
            let far = try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: #"{"place": "\#(id)", "lat": 55.70, "lon": 12.5690}"#)
            #expect((far.json["error"] as? [String: Any])?["code"] as? String == "outside")
            let got = try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: body)
            #expect(got.status == .created)
            #expect((got.json["code"] as? String)?.count == 8)
            let again = try await ann.api(.POST, "/api/v1/checkins", token: tokens[0], json: body)
            #expect((again.json["error"] as? [String: Any])?["code"] as? String == "already_rewarded")
            let capped = try await bo.api(.POST, "/api/v1/checkins", token: tokens[1], json: body)
            #expect(capped.status == .conflict)
            #expect((capped.json["error"] as? [String: Any])?["code"] as? String == "daily_cap")
        }
    }

    @Test func placesNearMeWithGamesAndRoutesAndRoutePrivacy() async throws {
        try await withApp { app in
            let admin = app.browser(), ana = app.browser(), ben = app.browser(), eve = app.browser()
            try await admin.signUp("adam")
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            try await eve.signUp("eve")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            try await ana.befriend(ben, "ben", me: "ana")
            #expect(try await ana.get("/places/new").status == .forbidden, "only admins and place managers add places")
            for (name, kind, lat, sport) in [
                ("North Park", "park", "55.7000", "running"), ("Harbour Court", "court", "55.6800", "basketball"), ("Far Pool", "pool", "56.5000", "other"),
            ] {
                let made = try await admin.post(
                    "/places/new",
                    [
                        ("name", name), ("kind", kind), ("latitude", lat), ("longitude", "12.5700"), ("radius_m", "200"), ("time_zone", "UTC"),
                        ("sports[]", sport),
                    ],
                    csrfFrom: "/places/new")
                #expect(made.status == .seeOther, "\(name): \(made.body.components(separatedBy: "class=\"error\"").dropFirst().map { $0.prefix(120) })")
            }
            let bad = try await admin.post(
                "/places/new",
                [("name", "<b>x</b>"), ("kind", "castle"), ("latitude", "91"), ("longitude", "12"), ("radius_m", "5"), ("time_zone", "Mars/Base")],
                csrfFrom: "/places/new")
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.contains("Choose what kind of place") && bad.contains("between -90 and 90") && bad.contains("Choose a time zone"))

            let near = try await eve.get("/places?lat=55.68&lon=12.57&radius_km=5")
            #expect(near.contains("Harbour Court") && near.contains("North Park") && !near.contains("Far Pool"))
            #expect(near.body.range(of: "Harbour Court")!.lowerBound < near.body.range(of: "North Park")!.lowerBound, "nearest first")
            let parks = try await eve.get("/places?lat=55.68&lon=12.57&radius_km=5&kind=park")
            #expect(parks.contains("North Park") && !parks.contains("Harbour Court"))
            let basketball = try await eve.get("/places?lat=55.68&lon=12.57&radius_km=5&sport=basketball")
            #expect(basketball.contains("Harbour Court") && !basketball.contains("North Park"))
            #expect(try await eve.get("/places?lat=abc&lon=12").status == .badRequest)
            #expect(try await eve.get("/places?kind=castle").status == .badRequest)

            // A public game at the court shows on its page; a game only players see does not.
            let game = try await ana.createPickup(lat: "55.6801", lon: "12.5701", place: "Harbour Court, east side")
            _ = try await ana.createPickup(privacy: "protected", lat: "55.6802", lon: "12.5702", place: "Secret corner")
            let court = try #require(near.firstMatch(#"href="(/places/[0-9a-f-]+)">Harbour Court"#))

            // Photos: the place's managers add them; everyone sees them, without the file's metadata.
            let jpeg = try fixturePhoto("geotagged_sony.jpg")
            #expect(
                try await eve.upload(court + "/photos", field: "photo", filename: "court.jpg", contentType: "image/jpeg", data: jpeg, csrfFrom: court).status
                    == .notFound, "only managers add photos")
            let added = try await admin.upload(court + "/photos", field: "photo", filename: "court.jpg", contentType: "image/jpeg", data: jpeg, csrfFrom: court)
            #expect(added.status == .seeOther)
            await app.app.photoSizer.idle()
            let withPhoto = try await app.browser().get(court)
            let photo = try #require(withPhoto.firstMatch(#"<img src="(/photos/[0-9a-f-]+/large)" alt="Photo of Harbour Court""#))
            let served = try await app.browser().get(photo)
            #expect(served.status == .ok && served.headers.contentType?.description == "image/jpeg")
            #expect(!served.body.contains("SONY") && !served.body.contains("Exif"), "no camera, time or GPS in what is served")
            let notImage = try await admin.upload(
                court + "/photos", field: "photo", filename: "court.jpg", contentType: "image/jpeg", data: Array("<html>not a photo</html>".utf8),
                csrfFrom: court)
            #expect([415, 422].contains(notImage.status.code))
            let photoID = try #require(photo.split(separator: "/").dropFirst().first.map(String.init))
            #expect(try await eve.post(court + "/photos/\(photoID)/delete", [], csrfFrom: court).status == .notFound)
            #expect(try await admin.post(court + "/photos/\(photoID)/delete", [], csrfFrom: court).status == .seeOther)
            #expect(try await app.browser().get(photo).status == .notFound)
            let courtPage = try await app.browser().get(court)
            #expect(courtPage.status == .ok)
            #expect(courtPage.contains("href=\"\(game)\""), "the public game at the court")
            #expect(!courtPage.contains("Secret corner"))
            #expect(courtPage.contains("<svg class=\"map\""))
            // "Organise a game here" opens the game form with the court as its venue.
            let organise = try #require(courtPage.firstMatch(#"href="(/games/new\?[^"]+)">Organise a game here"#)?.replacingOccurrences(of: "&amp;", with: "&"))
            let form = try await ana.get(organise)
            #expect(form.contains(#"value="Harbour Court""#) && form.contains(#"value="55.68""#))

            // Ana keeps her workout's path as a route: private until she shares it.
            // 200 points northwards, 2.2 km: longer than any privacy zone can hide.
            try await RouteMatrixTests.recordWorkout(ana, latitude: 55.6805, points: 200)
            let workout = try #require(try await Workout.query(on: app.db).first()?.requireID().uuidString.lowercased())
            let route = try #require(try await ana.post("/workouts/\(workout)/route", [], csrfFrom: "/workouts/\(workout)").location)
            #expect(try await ana.post("/workouts/\(workout)/route", [], csrfFrom: "/workouts/\(workout)").location == route, "kept once")
            for outsider in [ben, eve, app.browser()] { #expect(try await outsider.get(route).status == .notFound) }
            #expect(!(try await eve.get("/routes?near=55.68,12.57").contains("Morning run")))
            let ownPage = try await ana.get(route)
            #expect(ownPage.contains("Download GPX") && ownPage.contains("<svg class=\"map\""))
            #expect(try await ana.post(route, [("name", "Harbour loop"), ("visibility", "friends")], csrfFrom: route).status == .seeOther)
            #expect(try await ben.get(route).status == .ok)
            #expect(try await eve.get(route).status == .notFound)
            // Shared with friends: in Ben's feed, not in the feed of someone who merely follows.
            #expect(try await eve.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther)
            let bens = try await ben.get("/feed")
            #expect(bens.contains("shared a route") && bens.contains("Harbour loop"))
            #expect(!(try await eve.get("/feed").contains("Harbour loop")))
            // A plan names the route to follow; a friends-only route goes only with a plan for friends.
            let routeID = String(route.split(separator: "/").last!)
            let when = app.gameDay(2)
            let planFields: [(String, String)] = [
                ("text", "Harbour loop at six?"), ("sport", "running"), ("day", when.day), ("time", "18:00"), ("duration_minutes", "45"),
                ("capacity", "6"), ("route", routeID),
            ]
            let wrong = try await ana.post("/plans/new", planFields + [("audience", "followers")], csrfFrom: "/plans/new")
            #expect(wrong.status == .unprocessableEntity && wrong.contains("shared with friends only"))
            #expect(
                try await ana.post(
                    "/plans/new", planFields.map { $0.0 == "route" ? ($0.0, UUID().uuidString) : $0 } + [("audience", "friends")], csrfFrom: "/plans/new"
                ).status == .unprocessableEntity)
            let plan = try #require(try await ana.post("/plans/new", planFields + [("audience", "friends")], csrfFrom: "/plans/new").location)
            #expect(try await ben.get(plan).contains(#"<dt>Route</dt><dd><a href="\#(route)">Harbour loop</a>"#))
            #expect(try await ben.get("/routes?near=55.68,12.57").contains("Harbour loop"))
            #expect(!(try await eve.get("/routes?near=55.68,12.57").contains("Harbour loop")))
            #expect(try await ana.post(route, [("name", "Harbour loop"), ("visibility", "public")], csrfFrom: route).status == .seeOther)
            #expect(try await eve.get(court).contains("Harbour loop"), "the court lists routes starting nearby")
            // Without a point, near the person's home.
            _ = try await eve.saveProfile(["home_name": "Harbour", "home_lat": "55.69", "home_lon": "12.57"])
            let home = try await eve.get("/routes")
            #expect(home.status == .ok && home.contains("Harbour loop") && home.contains("your home area"))
            #expect(try await eve.get("/routes?near=55.68").status == .badRequest)

            // Others get the route without what lies in Ana's privacy zone, on the page and in the GPX.
            let full = try await ana.get(route + ".gpx")
            #expect(full.headers.contentType?.description.hasPrefix("application/gpx+xml") == true)
            #expect(full.body.components(separatedBy: "<trkpt").count - 1 == 200)
            #expect(
                try await ana.post(
                    "/settings/privacy-zones", [("name", "Home"), ("lat", "55.6805"), ("lon", "12.5700"), ("radius", "200")],
                    csrfFrom: "/settings/privacy-zones"
                ).status == .seeOther)
            let trimmed = try await eve.get(route + ".gpx")
            #expect(trimmed.status == .ok)
            let shown = trimmed.body.components(separatedBy: "<trkpt").count - 1
            #expect(shown > 0 && shown < 200)
            #expect(!trimmed.contains("lat=\"55.6805\""))
            let nearHome = try await eve.get("/routes?near=55.6805,12.57&radius_km=2")
            #expect(
                nearHome.contains("Harbour loop") && !nearHome.contains(">0 m away") && !nearHome.contains(">10 m away") && !nearHome.contains(">20 m away"),
                "its start is where the zone ends")

            // Under 16, a route is for friends at most.
            let kid = app.browser()
            try await kid.signUp("kid", birthDate: app.clock.today.adding(days: -14 * 366).description)
            try await RouteMatrixTests.recordWorkout(kid, latitude: 55.69)
            let kidID = try #require(try await User.query(on: app.db).filter(\.$username == "kid").first()?.requireID())
            let kidWorkout = try #require(try await Workout.query(on: app.db).filter(\.$user.$id == kidID).first()?.requireID().uuidString.lowercased())
            let kidRoute = try #require(try await kid.post("/workouts/\(kidWorkout)/route", [], csrfFrom: "/workouts/\(kidWorkout)").location)
            let refused = try await kid.post(kidRoute, [("name", "My way to school"), ("visibility", "public")], csrfFrom: kidRoute)
            #expect(refused.status == .unprocessableEntity && refused.contains("under 16"))
        }
    }
}

/// Clears a person's live positions between attempts in a test.
enum RideFixesReset {
    static func of(_ username: String, _ app: TestApp) async throws {
        let user = try #require(try await User.query(on: app.db).filter(\.$username == username).first())
        try await app.db.sql.raw("DELETE FROM ride_fixes WHERE user_id = \(bind: user.requireID())").run()
    }
}
