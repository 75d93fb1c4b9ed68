@testable import App
import FieldhouseKit
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

/// The maps of places, of game and team grounds and of privacy zones: what each shows, and to whom.
@Suite("Maps of places, grounds and privacy zones")
struct PlaceMapTests {
    /// A tile server nobody answers at: pages carry the zoomable map's data, and rendering a page
    /// asks it for nothing.
    static func tiles(_ config: inout AppConfig) { config.tileURL = "http://127.0.0.1:9/{z}/{x}/{y}.png" }

    struct MapData {
        struct Marker {
            let latitude, longitude: Double
            let symbol, title: String
            let primary: Bool
            let href: String?
        }
        struct Circle {
            let latitude, longitude, metres: Double
            let title: String
        }
        let markers: [Marker]
        let circles: [Circle]
        let locate: Bool
    }

    /// Every zoomable map's data on the page, read back from its `data-map` attribute.
    static func maps(in page: Browser.Page) throws -> [MapData] {
        let attributes = page.body.matches(of: /data-map='([^']*)'/).map { String($0.output.1) }
        return try attributes.map { attribute in
            let json = attribute.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let markers = (object["markers"] as? [[String: Any]] ?? []).map { marker in
                let at = marker["at"] as? [Double] ?? []
                return MapData.Marker(
                    latitude: at.first ?? .nan, longitude: at.last ?? .nan, symbol: marker["symbol"] as? String ?? "", title: marker["title"] as? String ?? "",
                    primary: marker["primary"] as? Bool ?? false, href: marker["href"] as? String)
            }
            let circles = (object["circles"] as? [[String: Any]] ?? []).map { circle in
                let at = circle["at"] as? [Double] ?? []
                return MapData.Circle(
                    latitude: at.first ?? .nan, longitude: at.last ?? .nan, metres: circle["metres"] as? Double ?? .nan, title: circle["title"] as? String ?? ""
                )
            }
            return MapData(markers: markers, circles: circles, locate: object["locate"] as? Bool ?? false)
        }
    }

    /// An admin adds a place through the form; with `reward`, an offer from `from` (ISO day) on.
    static func addPlace(
        _ admin: Browser, _ name: String, kind: String = "cafe", lat: String, lon: String, reward: String? = nil, from: String? = nil
    ) async throws -> String {
        let made = try await admin.post(
            "/places/new",
            [("name", name), ("kind", kind), ("latitude", lat), ("longitude", lon), ("radius_m", "60"), ("time_zone", "UTC"), ("sports[]", "cycling")],
            csrfFrom: "/places/new")
        #expect(made.status == .seeOther, "\(name): \(made.body.prefix(300))")
        let place = try #require(made.location)
        if let reward {
            let offer = try await admin.post(
                place + "/reward", [("reward_text", reward), ("daily_cap", "20")] + (from.map { [("from", $0)] } ?? []), csrfFrom: place + "/reward")
            #expect(offer.status == .seeOther, "\(name)'s reward: \(offer.body.prefix(300))")
        }
        return place
    }

    @Test func thePlacesMapShowsPartnersAndTheListedPlacesEachLinkingToItsPage() async throws {
        try await withApp(config: Self.tiles) { app in
            let admin = app.browser(), eve = app.browser()
            try await admin.signUp("adam")
            try await eve.signUp("eve")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            app.wroteBehindTheAppsBack()
            let café = try await Self.addPlace(admin, "Kaffe & Kæde", lat: "55.6760", lon: "12.5690", reward: "10 % off by bike")
            // A partner far from the search: on the map, not in the list.
            let lisbon = try await Self.addPlace(admin, "Café Lisboa", lat: "38.7100", lon: "-9.1400", reward: "A free pastel de nata by bike")
            let park = try await Self.addPlace(admin, "North Park", kind: "park", lat: "55.6900", lon: "12.5700")
            // A reward that starts next month is its managers' business until then: no partner, no reward shown.
            let later = LocalTime.day(of: app.clock.now, zone: "UTC").adding(days: 30).description
            let soon = try await Self.addPlace(admin, "Soon Bikes", kind: "shop", lat: "55.6805", lon: "12.5705", reward: "Secret opening offer", from: later)
            let farSoon = try await Self.addPlace(admin, "Far Soon Bikes", kind: "shop", lat: "40.4000", lon: "-3.7000", reward: "Another secret", from: later)

            for viewer in [eve, app.browser(), admin] {
                let page = try await viewer.get("/places?lat=55.68&lon=12.57&radius_km=5")
                #expect(page.status == .ok)
                let map = try #require(try Self.maps(in: page).first, "a zoomable map on /places")
                #expect(map.locate, "the places map offers “Where I am”")
                let byLink = Dictionary(map.markers.compactMap { marker in marker.href.map { ($0, marker) } }, uniquingKeysWith: { first, _ in first })
                // Every partner place, with a link to its page, told apart by its symbol and title.
                for (place, name) in [(café, "Kaffe & Kæde"), (lisbon, "Café Lisboa")] {
                    let marker = try #require(byLink[place], "\(name) on the map")
                    #expect(marker.symbol == "★" && marker.primary && marker.title.contains(name) && marker.title.contains("rewards arriving by bike"))
                }
                #expect(byLink[lisbon].map { abs($0.latitude - 38.71) < 1e-4 && abs($0.longitude + 9.14) < 1e-4 } == true)
                // The listed places that are not partners, linked too.
                let listed = try #require(byLink[park])
                #expect(listed.symbol == "•" && listed.title == "North Park" && !listed.primary)
                let soonMarker = try #require(byLink[soon], "listed, so on the map")
                #expect(soonMarker.symbol == "•" && !soonMarker.title.contains("Secret"))
                #expect(byLink[farSoon] == nil, "a place whose reward has not begun is no partner on the map")
                #expect(!page.main.contains("Secret opening offer") && !page.main.contains("Another secret") && !page.main.contains("Far Soon Bikes"))
                // The point the list is measured from, and nothing else.
                let centre = try #require(map.markers.first(where: { $0.href == nil }))
                #expect(
                    !centre.primary && centre.symbol == "◎" && centre.title == "The point you gave" && centre.latitude == 55.68 && centre.longitude == 12.57)
                #expect(map.markers.count == 5, "\(map.markers.map(\.title))")
                // The legend, and the list below the map as the text alternative.
                #expect(page.main.contains("A place that rewards arriving by bike") && page.main.contains("Another place in the list below"))
                #expect(page.main.contains("href=\"\(park)\">North Park</a>") && page.main.contains("href=\"\(café)\">Kaffe &amp; Kæde</a>"))
                #expect(page.main.range(of: "id=\"places-map-h\"")!.lowerBound < page.main.range(of: "id=\"places-h\"")!.lowerBound, "map above the list")
            }

            // Signed in with a home area and no search: the list and the map are measured from home.
            try await User.query(on: app.db).filter(\.$username == "eve").set(\.$homeLat, to: 55.6801).set(\.$homeLon, to: 12.5701).update()
            app.wroteBehindTheAppsBack()
            let home = try await eve.get("/places")
            let homeMap = try #require(try Self.maps(in: home).first)
            let centre = try #require(homeMap.markers.first(where: { $0.href == nil }))
            #expect(centre.title == "Your home area" && centre.symbol == "⌂")
            #expect(home.main.contains("Your home area, which the list is measured from"))
            // Nobody else's page carries eve's home.
            let anonymous = try await app.browser().get("/places")
            #expect(try Self.maps(in: anonymous).first?.markers.contains { $0.href == nil } == false)
            #expect(!anonymous.contains("55.6801"))
        }
    }

    @Test func withoutTilesThePlacesMapIsAPlainSVGWithATitlePerMarker() async throws {
        try await withApp { app in
            let admin = app.browser()
            try await admin.signUp("adam")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            app.wroteBehindTheAppsBack()
            _ = try await Self.addPlace(admin, "Kaffe & Kæde", lat: "55.6760", lon: "12.5690", reward: "10 % off by bike")
            _ = try await Self.addPlace(admin, "Next Door Park", kind: "park", lat: "55.6761", lon: "12.5691")
            let page = try await app.browser().get("/places")
            #expect(page.main.contains("<svg class=\"map\"") && !page.contains("data-map="))
            let partner = try #require(page.main.range(of: "<title>Kaffe &amp; Kæde, which rewards arriving by bike: 10 % off by bike</title>"))
            let neighbour = try #require(page.main.range(of: "<title>Next Door Park</title>"))
            #expect(neighbour.lowerBound < partner.lowerBound, "the partner is drawn over the place next door")
            // With no place at all there is no map.
            try await Place.query(on: app.db).delete()
            #expect(!(try await app.browser().get("/places")).main.contains("<svg class=\"map\""))
        }
    }

    @Test func thePlacesMapShowsAtMostThreeHundredPartnersNearestFirstAndSaysSo() async throws {
        try await withApp(config: Self.tiles) { app in
            let limit = PlaceController.mapPartnerLimit
            // Partners in a line northwards from 55.00, 0.001° apart: the nearest to 55.00 come first.
            try await app.db.inTransaction { db in
                var insert = db.sql.insert(into: Place.schema).columns(
                    "id", "name", "kind", "latitude", "longitude", "radius_m", "description", "opening_hours", "sports", "time_zone", "reward_text",
                    "reward_daily_cap")
                for n in 0..<(limit + 5) {
                    let row: [any Encodable & Sendable] = [
                        UUID(), "Partner \(n)", "cafe", 55.0 + Double(n) * 0.001, 12.0, 60.0, "", "", ",cycling,", "UTC", "Coffee by bike", 10,
                    ]
                    insert = insert.values(row.map { SQLBind($0) })
                }
                try await insert.run()
            }
            let near = try await app.browser().get("/places?lat=55.0&lon=12.0&radius_km=1")
            let map = try #require(try Self.maps(in: near).first)
            let partners = map.markers.filter { $0.symbol == "★" }
            #expect(partners.count == limit)
            #expect(partners.contains { $0.title.hasPrefix("Partner 0,") } && !partners.contains { $0.title.hasPrefix("Partner \(limit + 4),") })
            #expect(near.main.contains("The map shows the \(limit) places nearest the centre that reward arriving by bike; there are more further away."))
            let byName = try await app.browser().get("/places")
            #expect(try Self.maps(in: byName).first?.markers.filter { $0.symbol == "★" }.count == limit)
            #expect(byName.main.contains("The map shows the first \(limit) places by name that reward arriving by bike."))
        }
    }

    @Test func aGroundMapForThoseWhoMayKnowTheExactPlace() async throws {
        try await withApp(config: Self.tiles) { app in
            let ana = app.browser(), ben = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            // A public pick-up game: everyone sees the ground, on a map with its name.
            let open = try await ana.createPickup(lat: "55.6811", lon: "12.5722", place: "Beach courts, net 3")
            for viewer in [ana, ben, app.browser()] {
                let page = try await viewer.get(open)
                let map = try #require(try Self.maps(in: page).first, "a ground map on the game page")
                #expect(map.markers.count == 1 && map.markers[0].title == "Beach courts, net 3")
                #expect(abs(map.markers[0].latitude - 55.6811) < 1e-5 && abs(map.markers[0].longitude - 12.5722) < 1e-5)
                #expect(page.main.contains("Open map"))
            }
            // A protected game's ground is its players' business: no map, no point, for anyone else.
            let closed = try await ana.createPickup(privacy: "protected", lat: "55.6833", lon: "12.5744", place: "Secret corner")
            let organiser = try await ana.get(closed)
            #expect(try Self.maps(in: organiser).first?.markers.first?.title == "Secret corner")
            for viewer in [ben, app.browser()] {
                let page = try await viewer.get(closed)
                if page.status == .ok {
                    #expect(try Self.maps(in: page).isEmpty && !page.main.contains("<svg class=\"map\""))
                    #expect(!page.contains("55.6833") && !page.contains("12.5744") && !page.contains("Secret corner"))
                }
            }

            // A team's ground: members of a protected team see it on a map; others see only the area.
            let slug = try await ana.createTeam(
                "Harbour Futsal", privacy: "protected", extra: [("place_name", "Riverside Hall"), ("latitude", "55.6855"), ("longitude", "12.5766")])
            let member = try await ana.get("/teams/\(slug)")
            #expect(try Self.maps(in: member).first?.markers.first?.title == "Riverside Hall")
            for viewer in [ben, app.browser()] {
                let page = try await viewer.get("/teams/\(slug)")
                #expect(page.status == .ok)
                #expect(try Self.maps(in: page).isEmpty && !page.contains("55.6855") && !page.contains("Riverside Hall"))
            }
            // A public team's ground is everyone's to see, drawn without tiles as a plain SVG too.
            let public_ = try await ana.createTeam(
                "Open Futsal", privacy: "public", extra: [("place_name", "Open Hall"), ("latitude", "55.6877"), ("longitude", "12.5788")])
            #expect(try Self.maps(in: try await ben.get("/teams/\(public_)")).first?.markers.first?.title == "Open Hall")
        }
    }

    @Test func privacyZonesAreDrawnOnTheirOwnersSettingsPageOnly() async throws {
        try await withApp(config: Self.tiles) { app in
            let ana = app.browser(), ben = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            try await ana.befriend(ben, "ben", me: "ana")
            let empty = try await ana.get("/settings/privacy-zones")
            #expect(try Self.maps(in: empty).isEmpty, "no zones, no map")
            for (name, lat, lon, radius) in [("Home", "55.71234", "12.54321", "500"), ("School", "55.72345", "12.55432", "300")] {
                let added = try await ana.post(
                    "/settings/privacy-zones", [("name", name), ("lat", lat), ("lon", lon), ("radius", radius)], csrfFrom: "/settings/privacy-zones")
                #expect(added.status == .seeOther, "\(added.body.prefix(300))")
            }
            let settings = try await ana.get("/settings/privacy-zones")
            let map = try #require(try Self.maps(in: settings).first)
            #expect(map.markers.isEmpty && map.circles.count == 2)
            let home = try #require(map.circles.first { $0.title == "Home" })
            #expect(home.latitude == 55.71234 && home.longitude == 12.54321 && home.metres == 500)
            #expect(map.circles.contains { $0.title == "School" && $0.metres == 300 })
            #expect(settings.main.contains("Map of your 2 privacy zones"))

            // Her workout near home, for her friend and herself: the circles are on no other page.
            try await RouteMatrixTests.recordWorkout(ana, latitude: 55.7120, points: 60)
            let workout = try #require(try await Workout.query(on: app.db).first()?.requireID().uuidString.lowercased())
            var pages: [Browser.Page] = []
            for (viewer, path) in [
                (ana, "/"), (ana, "/u/ana"), (ana, "/workouts/\(workout)"), (ana, "/places"), (ana, "/settings"),
                (ben, "/u/ana"), (ben, "/workouts/\(workout)"), (ben, "/feed"), (app.browser(), "/u/ana"),
            ] {
                let page = try await viewer.get(path)
                if page.status == .ok { pages.append(page) }
            }
            #expect(pages.count >= 6, "the pages were there to look at")
            for page in pages {
                #expect(try Self.maps(in: page).allSatisfy(\.circles.isEmpty))
                #expect(!page.contains("55.71234") && !page.contains("12.54321") && !page.contains("55.72345"))
            }
        }
    }
}
