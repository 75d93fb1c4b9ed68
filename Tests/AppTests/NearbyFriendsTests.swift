@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// Nearby friends: off by default, 16 and over, areas not points, friends only, never inside a
/// privacy zone, lapsing after three hours.
@Suite("Nearby friends")
struct NearbyFriendsTests {
    @Test func friendsWhoShareSeeRoughDistancesAndNobodyElseSeesAnything() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), cai = app.browser(), kid = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            try await cai.signUp("cai")
            try await kid.signUp("kid", birthDate: app.clock.today.adding(days: -15 * 366).description)
            try await ana.befriend(ben, "ben", me: "ana")
            #expect(try await cai.post("/u/ana/follow", [], csrfFrom: "/u/ana").status == .seeOther, "Cai follows Ana; not back")
            let page = "/friends/nearby"

            #expect(try await ana.get(page).contains("Sharing is off"), "off by default")
            #expect(try await ana.post("/friends/nearby/here", [("latitude", "55.68"), ("longitude", "12.57")], csrfFrom: page).status == .forbidden)
            #expect(try await kid.get(page).contains("for people 16 and over"))
            #expect(try await kid.post("/friends/nearby/settings", [("enabled", "on")], csrfFrom: page).status == .forbidden)

            for browser in [ana, ben, cai] {
                #expect(try await browser.post("/friends/nearby/settings", [("enabled", "on")], csrfFrom: page).status == .seeOther)
            }
            let bad = try await ana.post("/friends/nearby/here", [("latitude", "91"), ("longitude", "12.57")], csrfFrom: page)
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.contains("latitude"))
            #expect(try await ana.post("/friends/nearby/here", [("latitude", "55.6800"), ("longitude", "12.5700")], csrfFrom: page).status == .seeOther)
            #expect(try await ben.get(page).contains("Share your own area"), "no distances without sharing")
            #expect(try await ben.post("/friends/nearby/here", [("latitude", "55.7000"), ("longitude", "12.5700")], csrfFrom: page).status == .seeOther)
            #expect(try await cai.post("/friends/nearby/here", [("latitude", "55.6801"), ("longitude", "12.5701")], csrfFrom: page).status == .seeOther)

            let anas = try await ana.get(page)
            #expect(anas.contains("Ben</a> <span class=\"muted\">about 2.0 km</span>") || anas.contains("Ben</a> <span class=\"muted\">about 2.5 km</span>"))
            #expect(!anas.contains("Cai"), "Cai is not a friend")
            let share = try #require(try await NearbyShare.query(on: app.db).filter(\.$cellLat != nil).first())
            #expect(share.cellLat != 55.68 && share.cellLat != 55.70, "an area, never the point")
            #expect(!(try await ben.get(page).contains("55.68")))

            // A point inside a privacy zone is not shared.
            #expect(
                try await ana.post(
                    "/settings/privacy-zones", [("name", "Home"), ("lat", "55.6900"), ("lon", "12.5900"), ("radius", "500")],
                    csrfFrom: "/settings/privacy-zones"
                ).status == .seeOther)
            // Nor a point outside it whose cell comes near it.
            for (lat, lon) in [("55.6901", "12.5901"), ("55.6950", "12.5900")] {
                let zoned = try await ana.post("/friends/nearby/here", [("latitude", lat), ("longitude", lon)], csrfFrom: page)
                #expect(zoned.status == .unprocessableEntity)
                #expect(zoned.contains("too close to one of your privacy zones"))
            }
            // A few moves a share, so nobody can walk points around a friend.
            #expect(try await cai.post("/friends/nearby/here", [("latitude", "55.6701"), ("longitude", "12.5701")], csrfFrom: page).status == .seeOther)
            #expect(try await cai.post("/friends/nearby/here", [("latitude", "55.6601"), ("longitude", "12.5701")], csrfFrom: page).status == .seeOther)
            #expect(try await cai.post("/friends/nearby/here", [("latitude", "55.6501"), ("longitude", "12.5701")], csrfFrom: page).status == .seeOther)
            #expect(try await cai.post("/friends/nearby/here", [("latitude", "55.6401"), ("longitude", "12.5701")], csrfFrom: page).status == .tooManyRequests)

            // Three hours on, the areas lapse; turning off clears at once.
            app.clock.advance(by: 3 * 3600 + 60)
            #expect(!(try await ben.get(page).contains("Ana</a>")))
            #expect(try await ana.post("/friends/nearby/settings", [("enabled", "off")], csrfFrom: page).status == .seeOther)
            #expect(
                try await NearbyShare.query(on: app.db).filter(
                    \.$user.$id == (try #require(try await User.query(on: app.db).filter(\.$username == "ana").first()?.id))
                ).first()?.cellLat == nil)
        }
    }
}
