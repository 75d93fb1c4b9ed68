@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// The "←" link at the top of a page leads back where the person came from, as their browser names
/// it in `Referer`, when that page leads here; otherwise to the page's section.
@Suite("Back links")
struct BackLinkTests {
    @Test func theWayBackLeadsWhereThePersonCameFrom() async throws {
        try await withApp { app in
            func from(_ path: String, host: String? = nil) -> HTTPHeaders {
                ["Referer": "http://\(host ?? "127.0.0.1:\(app.port)")\(path)"]
            }
            let organiser = app.browser()
            try await organiser.signUp("olga", name: "Olga Organiser")
            let game = try await organiser.createPickup()
            let player = app.browser()
            try await player.signUp("pia", name: "Pia Player")

            // A game: their games when the browser does not say; a search's results with its terms.
            #expect(try await player.get(game).contains(#"<p><a href="/games">← My games</a></p>"#))
            let searched = try await player.get(game, headers: from("/find?sport=volleyball&within=25&page=2"))
            #expect(searched.contains(#"<p><a href="/find?sport=volleyball&amp;within=25&amp;page=2">← Find a game</a></p>"#))
            #expect(try await player.get(game, headers: from("/")).contains(#"<p><a href="/">← Home</a></p>"#))
            // Another site's page of the same path, a page that does not lead here, or a hostile
            // Referer: back to the section, and nothing of the Referer on the page.
            for headers in [
                from("/find?sport=x", host: "evil.example"), from("/settings/profile"), ["Referer": "javascript:alert(1)"],
                from("/find?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E"), from("/find?q=\"><script>alert(1)</script>"),
            ] as [HTTPHeaders] {
                let page = try await player.get(game, headers: headers)
                #expect(page.status == .ok)
                #expect(!page.contains("<script>alert"))
                #expect(!page.contains("evil.example") && !page.contains("javascript:"))
            }

            // A team game goes back to its team unless the person came from elsewhere that leads here.
            let slug = try await organiser.createTeam("Harbour Strikers")
            let teamGame = try await organiser.createTeamGame(team: slug)
            #expect(try await organiser.get(teamGame).contains(#"<p><a href="/teams/\#(slug)">← Harbour Strikers</a></p>"#))
            #expect(try await organiser.get(teamGame, headers: from("/games")).contains(#"<p><a href="/games">← My games</a></p>"#))
            #expect(try await organiser.get("/teams/\(slug)", headers: from("/leagues")).contains(#"<p><a href="/leagues">← Leagues</a></p>"#))
            #expect(try await organiser.get("/teams/\(slug)").contains(#"<p><a href="/teams">← My teams</a></p>"#))

            // A workout: its owner goes back to the list they came from; someone else to its owner's profile.
            let workout = try await organiser.typedWorkout("running", daysAgo: 1, minutes: 40)
            #expect(try await organiser.get("/workouts/\(workout)").contains(#"<p><a href="/workouts">← Workouts</a></p>"#))
            #expect(
                try await organiser.get("/workouts/\(workout)", headers: from("/workouts?group=week&page=3"))
                    .contains(#"<p><a href="/workouts?group=week&amp;page=3">← Workouts</a></p>"#))
            #expect(try await organiser.get("/workouts/\(workout)", headers: from("/heart-rate")).contains(#"<p><a href="/heart-rate">← Heart rate</a></p>"#))
            let seen = try await player.get("/workouts/\(workout)", headers: from("/u/olga"))
            #expect(seen.status == .ok)
            #expect(seen.contains(#"<p><a href="/u/olga">← Olga Organiser</a></p>"#))
            // Without coming from the profile, the way back does not name the owner: home.
            #expect(try await player.get("/workouts/\(workout)").contains(#"<p><a href="/">← Home</a></p>"#))
            // A profile the viewer may not see is never offered, wherever the browser says they were.
            let olga = try #require(try await User.query(on: app.db).filter(\.$username == "olga").first())
            olga.visibility = .private
            try await olga.save(on: app.db)
            let hidden = try await app.browser().get("/workouts/\(workout)", headers: from("/u/olga"))
            #expect(hidden.status == .ok, "a public workout stays public whatever the profile")
            #expect(!hidden.contains("Olga Organiser"))
            #expect(hidden.contains(#"<p><a href="/">← Home</a></p>"#))
        }
    }
}
