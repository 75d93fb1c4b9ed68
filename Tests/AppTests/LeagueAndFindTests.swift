@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Leagues, nearby search and notifications")
struct LeagueAndFindTests {
    @Test func aManagerBuildsALeagueOfTwoTeams() async throws {
        try await withApp { app in
            let maya = app.browser(); try await maya.signUp("maya", name: "Maya Lind")
            let jonas = app.browser(); try await jonas.signUp("jonas", name: "Jonas Berg")
            let home = try await maya.createTeam("Riverside Futsal", privacy: "protected")
            let away = try await jonas.createTeam("Old Town Futsal", privacy: "public")
            let volley = try await jonas.createTeam("Old Town Volley", privacy: "public", sport: "volleyball")

            let bad = try await maya.post(
                "/leagues/new", [("name", "   "), ("sport", "cricket"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", "public")],
                csrfFrom: "/leagues/new")
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.contains("Enter a name"))
            #expect(bad.contains("Choose a sport from the list"))

            let created = try await maya.post(
                "/leagues/new",
                [("name", "City Futsal League"), ("sport", "futsal"), ("skill", "any"), ("age_group", "18+"), ("gender", "any"), ("privacy", "public")],
                csrfFrom: "/leagues/new")
            let url = try #require(created.location)
            #expect(url == "/leagues/city-futsal-league")

            // Maya manages her own team, so it joins at once; Jonas's team is invited.
            try await maya.post("\(url)/teams", [("team", home)], csrfFrom: url)
            let wrongSport = try await maya.post("\(url)/teams", [("team", volley)], csrfFrom: url)
            #expect(wrongSport.status == .unprocessableEntity)
            #expect(wrongSport.contains("this league is for Futsal"))
            // The league page again, the typed address kept beside its message.
            #expect(wrongSport.contains(#"id="team-error""#) && wrongSport.contains(#"value="\#(volley)""#))
            let misspelt = try await maya.post("\(url)/teams", [("team", "old-town-futsl")], csrfFrom: url)
            #expect(misspelt.status == .unprocessableEntity && misspelt.contains("No team is called “old-town-futsl”"))
            #expect(misspelt.contains(#"value="old-town-futsl""#) && misspelt.contains("<h1>City Futsal League"))
            // Teams are offered by name as the field is typed (futsal teams not yet in it), and found by name in any case.
            let offered = try await maya.get(url)
            #expect(offered.contains(#"<option value="Old Town Futsal">"#) && !offered.contains(#"<option value="Riverside Futsal">"#))
            #expect(try await maya.post("\(url)/teams", [("team", "old town futsal")], csrfFrom: url).status == .seeOther)
            #expect(try await jonas.get("/notifications").contains("Old Town Futsal is invited to the league City Futsal League"))

            // Only the invited team's managers may answer.
            #expect(try await maya.post("\(url)/teams/\(away)/accept", [], csrfFrom: url).status == .forbidden)
            try await jonas.post("\(url)/teams/\(away)/accept", [], csrfFrom: url)

            let page = try await app.browser().get(url)
            #expect(page.contains("Riverside Futsal"))
            #expect(page.contains("Old Town Futsal"))
            #expect(page.contains("<th scope=\"col\"><abbr title=\"Points\">Pts</abbr></th>"))
            #expect(try await maya.get("/teams/\(home)").contains("City Futsal League"))
            #expect(try await app.browser().get("/leagues").contains("City Futsal League"))
        }
    }

    @Test func aPrivateLeagueIsOnlyForItsPeople() async throws {
        try await withApp { app in
            let boss = app.browser(); try await boss.signUp("boss")
            let created = try await boss.post(
                "/leagues/new",
                [("name", "Quiet League"), ("sport", "futsal"), ("skill", "any"), ("age_group", "any"), ("gender", "any"), ("privacy", "private")],
                csrfFrom: "/leagues/new")
            let url = try #require(created.location)
            #expect(try await boss.get(url).status == .ok)
            let stranger = app.browser(); try await stranger.signUp("nosy")
            #expect(try await stranger.get(url).status == .notFound)
            #expect(!(try await stranger.get("/leagues").contains("Quiet League")))
            #expect(try await app.browser().get(url).status == .notFound)
        }
    }

    @Test func findListsTeamsLookingForPlayersNearestFirst() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("owner")
            // Copenhagen centre, Roskilde (~30 km), Aarhus (~157 km).
            _ = try await owner.createTeam("Near Team", privacy: "public", extra: [("latitude", "55.68"), ("longitude", "12.58")])
            _ = try await owner.createTeam("Roskilde Team", privacy: "protected", extra: [("latitude", "55.6415"), ("longitude", "12.0803")])
            _ = try await owner.createTeam("Aarhus Team", privacy: "public", extra: [("latitude", "56.1629"), ("longitude", "10.2039")])
            _ = try await owner.createTeam("Secret Near Team", privacy: "private", extra: [("latitude", "55.68"), ("longitude", "12.57")])
            _ = try await owner.createTeam("Volley Near", privacy: "public", sport: "volleyball", extra: [("latitude", "55.68"), ("longitude", "12.57")])
            _ = try await owner.createTeam("Full Team", privacy: "public", looking: false, extra: [("latitude", "55.68"), ("longitude", "12.57")])

            let searcher = app.browser()
            let page = try await searcher.get("/find?what=teams&lat=55.6761&lon=12.5683&radius_km=50&sport=futsal")
            #expect(page.status == .ok)
            let near = try #require(page.body.range(of: "Near Team"))
            let roskilde = try #require(page.body.range(of: "Roskilde Team"))
            #expect(near.lowerBound < roskilde.lowerBound, "nearest first")
            #expect(page.contains("km away"))
            #expect(!page.contains("Aarhus Team"), "outside the radius")
            #expect(!page.contains("Secret Near Team"), "private teams are never listed")
            #expect(!page.contains("Volley Near"), "other sports filtered out")
            #expect(!page.contains("Full Team"), "teams not looking for players are not listed")

            let wide = try await searcher.get("/find?what=teams&lat=55.6761&lon=12.5683&radius_km=200&sport=futsal")
            #expect(wide.contains("Aarhus Team"))

            let bad = try await searcher.get("/find?lat=95&lon=12&radius_km=9000&sport=chess")
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.contains("Enter a latitude between -90 and 90"))
            #expect(bad.contains("Choose a distance between 1 and 200 km"))
            #expect(bad.contains("Choose a sport from the list"))

            let ask = try await searcher.get("/find")
            #expect(ask.contains("Type a place or a town above (or press “Use my current location”"))
        }
    }

    /// A protected team is searched at its area (0.1°), so no centre and radius, however fine, can narrow
    /// down its ground: standing on it finds nothing within a kilometre and shows the area's distance.
    @Test func aProtectedTeamsGroundCannotBeBisectedBySearching() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("owner")
            // The ground is 2.1 km from its area's centre (55.7, 12.6); a public team on the same spot for comparison.
            _ = try await owner.createTeam("Hidden Ground", privacy: "protected", extra: [("latitude", "55.6812"), ("longitude", "12.5734")])
            _ = try await owner.createTeam("Open Ground", privacy: "public", extra: [("latitude", "55.6812"), ("longitude", "12.5734")])
            let searcher = app.browser()
            let onTheSpot = try await searcher.get("/find?what=teams&lat=55.6812&lon=12.5734&radius_km=1")
            #expect(onTheSpot.contains("Open Ground"))
            #expect(!onTheSpot.contains("Hidden Ground"), "found by standing on its ground")
            for (lat, lon) in [("55.6812", "12.5734"), ("55.69", "12.59"), ("55.67", "12.55")] {
                let page = try await searcher.get("/find?what=teams&lat=\(lat)&lon=\(lon)&radius_km=5")
                let here = Coordinate(latitude: Double(lat)!, longitude: Double(lon)!)
                let fromArea = Geo.distance(here, Coordinate(latitude: 55.7, longitude: 12.6))
                #expect(page.contains("Hidden Ground") == (fromArea <= 5000), "\(lat), \(lon)")
            }
            // A box edge cannot give it away either: from 6 km due north the area is in reach, the ground is not.
            let north = try await searcher.get("/find?what=teams&lat=55.745&lon=12.6&radius_km=5.1")
            #expect(north.contains("Hidden Ground"))
        }
    }

    @Test func notificationsAreReadAndPrivateToTheirRecipient() async throws {
        try await withApp { app in
            let owner = app.browser(); try await owner.signUp("owner")
            let slug = try await owner.createTeam("Bell Ringers", privacy: "protected")
            let fan = app.browser(); try await fan.signUp("fan")
            try await fan.post("/teams/\(slug)/join", [], csrfFrom: "/teams/\(slug)")
            #expect(try await owner.get("/notifications").contains("asked to join Bell Ringers"))
            #expect(!(try await fan.get("/notifications").contains("asked to join")))
            try await owner.post("/notifications/read", [], csrfFrom: "/notifications")
            let after = try await owner.get("/notifications")
            #expect(!after.contains("class=\"count\""))
            #expect(try await Notification.query(on: app.db).filter(\.$read == false).count() == 0)
        }
    }

    @Test func demoDataSeedsTeamsAndLeaguesOnce() async throws {
        try await withApp { app in
            _ = try await DemoPeople.seed(app: app.app)
            let first = try await DemoTeams.seed(app: app.app)
            let second = try await DemoTeams.seed(app: app.app)
            #expect(first >= 5)
            #expect(second == 0)
            let maya = app.browser()
            try await maya.logIn("maya", password: "fieldhouse-demo")
            #expect(try await maya.get("/teams").contains("Riverside Futsal"))
            #expect(try await maya.get("/teams/riverside-futsal").contains("Requests to join"))
            #expect(try await app.browser().get("/teams/northfield-u16").status == .notFound)
        }
    }
}
