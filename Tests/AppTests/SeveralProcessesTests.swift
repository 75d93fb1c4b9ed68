@testable import App
import Fluent
import Foundation
import Testing
import Vapor

extension Browser {
    /// The same browser (its cookies), now answered by another server on the same data: what a
    /// person behind a proxy gets when their next request lands on another process.
    func answered(by other: TestApp) -> Browser {
        let moved = Browser(app: other)
        for (name, value) in cookies { moved.setCookie(name, value) }
        moved.extraHeaders = extraHeaders
        return moved
    }
}

/// Two servers on one database and one data directory, as behind nginx (`make cluster`): whatever
/// one process keeps in memory must not hide a change another process made.
@Suite("Several processes, one truth")
struct SeveralProcessesTests {
    @Test func sessionsAndSignOutsHoldOnEveryProcess() async throws {
        try await withTwoProcesses { a, b in
            let onA = a.browser()
            try await onA.signUp("sam_s", name: "Sam Several")
            let onB = onA.answered(by: b)
            let profile = try await onB.get("/settings/profile")
            #expect(profile.status == .ok && profile.main.contains("Sam Several"))
            // A form from one process is accepted by the other: the CSRF token lives with the session.
            try await b.browser().signUp("tom_t")
            let token = try #require(try await onA.get("/u/tom_t").csrf)
            #expect(try await onB.post("/u/tom_t/follow", [("csrf", token)], csrfFrom: nil).status == .seeOther)
            try await onB.logOut()
            let after = try await onA.get("/settings/profile")
            #expect(after.status == .seeOther && after.location?.hasPrefix("/login") == true, "signed out on B is signed out on A")
        }
    }

    @Test func failedSignInsAreCountedAcrossProcesses() async throws {
        try await withTwoProcesses { a, b in
            try await a.browser().signUp("lia_l")
            // Ten failures, alternating between the processes, lock the account from this address on both.
            for attempt in 0..<LoginLimiter.maxFailures {
                let guesser = (attempt % 2 == 0 ? a : b).browser()
                #expect(try await guesser.logIn("lia_l", password: "wrong guess \(attempt)").status == .unauthorized)
            }
            for server in [a, b] {
                let page = try await server.browser().logIn("lia_l")
                #expect(page.status == .tooManyRequests, "the limit holds on every process")
            }
        }
    }

    @Test func anArticlePublishedOnOneProcessShowsOnTheOtherWithinASecond() async throws {
        try await withTwoProcesses { a, b in
            let editor = try await LearnTests.makeEditor(a, "ed_e", name: "Edda Editor")
            let reader = b.browser()
            // B holds the library in memory (and a rendered page of it) before A changes it.
            #expect(!(try await reader.get("/learn").contains("Cooling down after a match")))
            #expect(try await reader.get("/learn/cooling-down-after-a-match").status == .notFound)
            let published = try await editor.post("/learn/new", LearnTests.fields(action: "publish"), csrfFrom: "/learn/new")
            #expect(published.status == .seeOther)
            var seen = false
            for _ in 0..<30 where !seen {
                seen = try await reader.get("/learn/cooling-down-after-a-match").status == .ok
                if !seen { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(seen, "B shows the article within three seconds")
            #expect(try await reader.get("/learn").contains("Cooling down after a match"))
        }
    }

    @Test func aPrivacyZoneDrawnOnOneProcessHidesTheMapOnTheOther() async throws {
        try await withTwoProcesses { a, b in
            let (ana, id) = try await WorkoutPageTests.anaWithWorkouts(a)
            let workout = try #require(try await Workout.find(UUID(uuidString: id), on: a.db))
            workout.visibility = .public
            try await workout.save(on: a.db)
            let ben = b.browser()
            try await ben.signUp("ben_b")
            let map = #"<svg class="map"[\s\S]*?</svg>"#
            let before = try #require(try await ben.get("/workouts/\(id)").firstMatch("(" + map + ")"))
            #expect(try await ben.get("/workouts/\(id)").firstMatch("(" + map + ")") == before, "B drew it once and keeps it")
            let added = try await ana.post(
                "/settings/privacy-zones", [("name", "Home"), ("lat", "58.9591828"), ("lon", "5.7288390"), ("radius", "500")],
                csrfFrom: "/settings/privacy-zones")
            #expect(added.status == .seeOther)
            let after = try await ben.get("/workouts/\(id)")
            #expect(after.contains("parts near private places are hidden"))
            #expect(after.firstMatch("(" + map + ")") != before, "B draws the map again without what the zone hides")
        }
    }

    @Test func countsAndUploadsMadeOnOneProcessShowOnTheOther() async throws {
        try await withTwoProcesses { a, b in
            let ana = a.browser()
            try await ana.signUp("ana_a", name: "Ana Athlete")
            let ben = a.browser()
            try await ben.signUp("ben_b", name: "Ben Follower")
            let anaOnB = ana.answered(by: b)
            #expect(!(try await anaOnB.get("/").contains("unread</span>")))
            // Something that concerns Ana happens on A; B's bell counts it on the next page.
            let anaID = try #require(try await User.query(on: a.db).filter(\.$username == "ana_a").first()?.requireID())
            try await Notification(recipient: anaID, actor: nil, kind: .nudge, text: "Time for a run?", link: "/").create(on: a.db)
            #expect(try await anaOnB.get("/").contains(#"<span class="count">1<span class="visually-hidden"> unread</span>"#))

            // A picture stored by A is served by B: the data directory is shared.
            let photo = try fixtureFile("photos/geotagged_sony.jpg")
            let upload = try await ana.upload(
                "/settings/avatar", field: "avatar", filename: "me.jpg", contentType: "image/jpeg", data: photo, csrfFrom: "/settings/avatar")
            #expect(upload.status == .seeOther)
            let fromA = try await ben.get("/u/ana_a/avatar")
            let fromB = try await ben.answered(by: b).get("/u/ana_a/avatar")
            #expect(fromA.status == .ok && fromB.status == .ok)
            #expect(fromA.bytes == fromB.bytes)
            #expect(fromB.bytes.starts(with: [0xFF, 0xD8, 0xFF]) || fromB.bytes.starts(with: Array("RIFF".utf8)))
        }
    }
}

extension SeveralProcessesTests {
    @Test func anExportAskedForOnOneProcessIsOfferedByTheOther() async throws {
        try await withTwoProcesses { a, b in
            let ana = a.browser()
            try await ana.signUp("ana_x")
            let onB = ana.answered(by: b)
            #expect(try await ana.post("/settings/export", [], csrfFrom: "/settings/export").status == .seeOther)
            #expect(try await onB.get("/settings/export").contains("This page reloads by itself"), "B knows it is under way")
            #expect(try await onB.post("/settings/export", [], csrfFrom: "/settings/export").status == .seeOther)
            #expect(try await Job.query(on: a.db).filter(\.$kind == ExportJob.kind.name).count() == 1, "asked twice, made once")
            try await b.app.jobs.runDue(b.app)
            let page = try await ana.get("/settings/export")
            #expect(page.contains("href=\"/settings/export/download\"") && !page.contains("This page reloads by itself"))
            let download = try await ana.get("/settings/export/download")
            #expect(download.status == .ok && download.bytes.starts(with: [0x50, 0x4B]), "A hands out the ZIP B wrote")
        }
    }
}
