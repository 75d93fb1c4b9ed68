@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// Biklio on the recorder (issue 43): a ride recorded in a browser, whose positions carry no speed,
/// counts as cycling, and the recorder learns by itself when a check-in at a partner place would pay.
@Suite("Rewards from the recorder")
struct RecorderRewardTests {
    /// Positions as a browser's recorder sends them: one a second at `speed` m/s due north, no
    /// speed of their own, in a batch every 5 s, the app's clock moving on with them.
    static func browserRide(_ app: TestApp, _ browser: Browser, token: String, minutes: Int, speed: Double) async throws {
        let start = app.clock.milliseconds
        for batch in 0..<(minutes * 12) {
            app.clock.advance(by: 5)
            let readings = (0..<5).map { second in
                let t = start + Int64(batch * 5 + second) * 1000
                let north = Double(t - start) / 1000 * speed
                return #"{"t": \#(t), "lat": \#(55.60 + north / 111_195), "lon": 12.50, "accuracy": 8}"#
            }
            let sent = try await browser.api(.POST, "/api/v1/samples", token: token, json: #"{"locations": [\#(readings.joined(separator: ","))]}"#)
            #expect(sent.status.code < 400, "\(sent.body.prefix(300))")
        }
    }

    @Test func aRideRecordedInTheBrowserCountsAsCycling() async throws {
        try await withApp { app in
            let rider = app.browser(), walker = app.browser()
            try await rider.signUp("rui")
            try await walker.signUp("wanda")
            for browser in [rider, walker] { try await PlacesTests.turnOnRewards(browser) }
            let riderToken = try await rider.deviceToken(named: "Recorder", allDay: false)
            let walkerToken = try await walker.deviceToken(named: "Recorder", allDay: false)

            // Eleven minutes at 18 km/h, without a motion label or a speed anywhere.
            try await Self.browserRide(app, rider, token: riderToken, minutes: 11, speed: 5)
            #expect(try await PlacesTests.states(app, "rui") == ["cycling_ineligible", "cycling_eligible"])
            #expect(try await rider.get("/rewards").contains("Cycling: rewards are yours today"))
            #expect(try await rider.get("/notifications").contains("check in at a partner place today"))

            // The same time on foot (5 km/h) is no ride at all.
            try await Self.browserRide(app, walker, token: walkerToken, minutes: 11, speed: 1.4)
            #expect(try await PlacesTests.states(app, "wanda") == [])
            #expect(try await walker.get("/rewards").contains("Not cycling"))
        }
    }

    @Test func theRecorderIsOfferedTheCheckInOnlyWhereAndWhenItPays() async throws {
        try await withApp { app in
            let admin = app.browser(), rider = app.browser(), stranger = app.browser()
            try await admin.signUp("adam")
            try await rider.signUp("rita")
            try await stranger.signUp("sven")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            let place = try await PlacesTests.café(app, admin: admin, manager: "adam")
            let id = String(place.split(separator: "/").last!)
            let token = try await rider.deviceToken(named: "Recorder", allDay: false)
            let strangerToken = try await stranger.deviceToken(named: "Recorder", allDay: false)
            try await PlacesTests.turnOnRewards(rider)
            try await PlacesTests.turnOnRewards(stranger)
            for name in ["rita", "sven"] { try await PlacesTests.confirmAddress(app, name) }
            let atTheDoor = "/api/v1/checkins/offer?lat=55.67605&lon=12.56905"
            func offer(_ path: String = atTheDoor, token: String) async throws -> [String: Any]? {
                let answer = try await rider.api(.GET, path, token: token)
                #expect(answer.status == .ok, "\(answer.body.prefix(300))")
                #expect(answer.headers.first(name: .cacheControl) == "no-store")
                #expect(answer.json.keys.contains("offer"), "offer is null, not missing: \(answer.body)")
                return answer.json["offer"] as? [String: Any]
            }

            // At the door before any ride: nothing to offer.
            #expect(try await offer(token: token) == nil)
            // Refused as the API refuses: no token, a bad or missing number, a parameter twice.
            #expect(try await rider.api(.GET, atTheDoor, token: nil).status == .unauthorized)
            for bad in ["lat=95&lon=12.569", "lat=abc&lon=12.569", "lat=nan&lon=1", "lat=55.676", "lat=55.676&lat=55.676&lon=12.569", ""] {
                let answer = try await rider.api(.GET, "/api/v1/checkins/offer?" + bad, token: token)
                #expect(answer.status == .badRequest, "\(bad): \(answer.status)")
                #expect(answer.errorCode == "invalid_query")
            }

            // Rita rides there with the recorder (positions only, no motion labels, no speeds).
            try await PlacesTests.rideLive(app, rider, token: token)
            #expect(try await PlacesTests.states(app, "rita") == ["cycling_ineligible", "cycling_eligible"])
            let offered = try #require(try await offer(token: token))
            #expect(offered["place"] as? String == id)
            #expect(offered["name"] as? String == "Kaffe & Kæde")
            #expect(offered["reward"] as? String == "10 % off by bike")
            #expect(offered["url"] as? String == place)
            #expect(offered["radius_m"] as? Int == 60)
            #expect((offered["distance_m"] as? Int).map { $0 <= 60 } == true)
            #expect(offered["message"] as? String == "You're at Kaffe & Kæde: check in for “10 % off by bike”.")
            // Half a kilometre up the road, outside the café's 60 m: nothing.
            #expect(try await offer("/api/v1/checkins/offer?lat=55.6805&lon=12.5690", token: token) == nil)

            // Sven stands at the same door, not having ridden: his token sees nothing, of Rita or anyone.
            let his = try await rider.api(.GET, atTheDoor, token: strangerToken)
            #expect(his.status == .ok && his.body.replacingOccurrences(of: " ", with: "") == #"{"offer":null}"#)
            #expect(!his.body.contains("rita") && !his.body.contains(id))

            // What was offered is what a check-in gives; once it has, there is nothing more to offer.
            let checkin = try await rider.api(.POST, "/api/v1/checkins", token: token, json: #"{"place": "\#(id)", "lat": 55.67605, "lon": 12.56905}"#)
            #expect(checkin.status == .created, "\(checkin.body)")
            #expect(try await offer(token: token) == nil)

            // A drive is not a ride: in a vehicle, nothing is offered and a check-in is refused so.
            try await RideFixesReset.of("rita", app)
            try await PlacesTests.rideLive(app, rider, token: token, speed: 20)
            #expect(try await PlacesTests.states(app, "rita").last == "vehicular")
            let other = try await PlacesTests.café(app, admin: admin, manager: "adam")
            let refused = try await rider.api(
                .POST, "/api/v1/checkins", token: token, json: #"{"place": "\#(other.split(separator: "/").last!)", "lat": 55.6760, "lon": 12.5690}"#)
            #expect(refused.errorCode == "vehicle")
            #expect(try await offer(token: token) == nil)
        }
    }
}
