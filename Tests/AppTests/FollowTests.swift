@testable import App
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Following and friends")
struct FollowTests {
    @Test func followingBackMakesFriendsAndUnfollowingUndoesIt() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana", name: "Ana Costa")
            let ben = app.browser()
            try await ben.signUp("ben", name: "Ben Ode")

            let followed = try await ana.post("/u/ben/follow", [], csrfFrom: "/u/ben")
            #expect(followed.status == .seeOther)
            #expect(try await ana.get("/u/ben").contains("Unfollow"))
            #expect(try await ana.get("/u/ben/followers").contains("@ana"))
            #expect(try await ana.get("/friends").contains("No friends yet"))

            let benFriends = try await ben.get("/friends")
            #expect(benFriends.contains("Follow back to become friends"))
            #expect(benFriends.contains("Ana Costa"))
            try await ben.post("/u/ana/follow", [], csrfFrom: "/friends")
            #expect(try await ana.get("/friends").contains("Ben Ode"))
            #expect(try await ben.get("/friends").main.contains("Ana Costa"))

            try await ana.post("/u/ben/unfollow", [], csrfFrom: "/u/ben")
            let benAfter = try await ben.get("/friends")
            #expect(benAfter.contains("No friends yet"))
            #expect(!benAfter.contains("Ana Costa"))
            #expect(try await ana.get("/u/ben").contains(">Follow back<"))
            #expect(try await Follow.query(on: app.db).count() == 1)
        }
    }

    @Test func followingTwiceOrFollowingYourselfChangesNothing() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            try await app.browser().signUp("ben")
            try await ana.post("/u/ben/follow", [], csrfFrom: "/u/ben")
            try await ana.post("/u/ben/follow", [], csrfFrom: "/u/ben")
            #expect(try await Follow.query(on: app.db).count() == 1)
            let selfFollow = try await ana.post("/u/ana/follow", [], csrfFrom: "/u/ana")
            #expect(selfFollow.status == .unprocessableEntity)
            #expect(selfFollow.contains("You cannot follow yourself"))
            let anonymous = try await app.browser().post("/u/ben/follow", [], csrfFrom: "/signup")
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.location?.hasPrefix("/login?next=") == true)
            #expect(try await Follow.query(on: app.db).count() == 1)
        }
    }

    @Test func followersOnlyProfilesApproveRequestsFirst() async throws {
        try await withApp { app in
            let coach = app.browser()
            try await coach.signUp("coach_c", name: "Coach Carter")
            let teen = app.browser()
            try await teen.signUp("teen_t", name: "Teen Taylor")
            try await teen.saveProfile(["display_name": "Teen Taylor", "bio": "Secret bio", "sports[tennis]": "beginner"])
            try await teen.post("/settings/privacy", [("visibility", "followers")], csrfFrom: "/settings/privacy")

            let asked = try await coach.post("/u/teen_t/follow", [], csrfFrom: "/u/teen_t")
            #expect(asked.status == .seeOther)
            let limited = try await coach.get("/u/teen_t")
            #expect(limited.contains("Cancel follow request"))
            #expect(!limited.contains("Secret bio"))
            #expect(try await coach.get("/u/teen_t/followers").status == .notFound)

            let requests = try await teen.get("/friends")
            #expect(requests.contains("Follow requests"))
            #expect(requests.contains("Coach Carter"))
            #expect(try await teen.get("/").contains("1 follow request waiting"))

            // Someone else cannot answer Taylor's requests.
            let other = app.browser()
            try await other.signUp("other_o")
            #expect(try await other.post("/friends/requests/coach_c/approve", [], csrfFrom: "/friends").status == .notFound)

            try await teen.post("/friends/requests/coach_c/approve", [], csrfFrom: "/friends")
            let full = try await coach.get("/u/teen_t")
            #expect(full.contains("Secret bio"))
            #expect(full.contains("Tennis"))
        }
    }

    @Test func decliningARequestRemovesIt() async throws {
        try await withApp { app in
            let fan = app.browser()
            try await fan.signUp("fan")
            let star = app.browser()
            try await star.signUp("star")
            try await star.post("/settings/privacy", [("visibility", "followers")], csrfFrom: "/settings/privacy")
            try await fan.post("/u/star/follow", [], csrfFrom: "/u/star")
            try await star.post("/friends/requests/fan/decline", [], csrfFrom: "/friends")
            #expect(try await Follow.query(on: app.db).count() == 0)
            #expect(try await fan.get("/u/star").contains("Ask to follow"))
        }
    }

    @Test func findPeopleByNameOrUsernameWithPaging() async throws {
        try await withApp { app in
            for index in 1...23 {
                try await app.browser().signUp(String(format: "player_%02d", index), name: String(format: "Player %02d", index))
            }
            try await app.browser().signUp("odd_one", name: "Zed 100%")
            let viewer = app.browser()
            let first = try await viewer.get("/people?q=PLAYER")
            #expect(first.contains("player_01"))
            #expect(!first.contains("odd_one"))
            #expect(first.contains("Next →"))
            let next = try #require(first.firstMatch(#"href="([^"]+)" rel="next""#))
            let second = try await viewer.get(next.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(second.contains("player_23"))
            #expect(!second.contains("player_01<"))
            #expect(second.contains("← Previous"))

            // % and _ are ordinary characters in a search.
            let percent = try await viewer.get("/people?q=%25")
            #expect(percent.contains("odd_one"))
            #expect(!percent.contains("player_01"))
            let hostile = try await viewer.get("/people?q=%27%20OR%201%3D1%20--")
            #expect(hostile.status == .ok)
            #expect(hostile.contains("Nobody matches"))
        }
    }
}
