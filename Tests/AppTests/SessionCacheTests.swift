@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// A process keeps the sessions it read (`signInCache`), so most signed-in requests run no query
/// for them; everything that changes a session, its person or the header's counts is seen at the
/// very next request all the same.
@Suite struct SessionCacheTests {
    static func isSessionRead(_ sql: String) -> Bool { sql.contains("FROM sessions s JOIN users u") }

    @Test func aKeptSessionFollowsEveryChangeAtOnce() async throws {
        try await withApp { app in
            let phone = app.browser()
            try await phone.signUp("kim_k", name: "Kim Keeper")
            let laptop = app.browser()
            #expect(try await laptop.logIn("kim_k").status == .seeOther)
            let log = StatementLog()
            log.install(on: app.app)
            // The first request of a session reads it; the next ones do not.
            let (_, first) = try await log.record { try await laptop.get("/settings/profile") }
            let (again, second) = try await log.record { try await laptop.get("/settings/profile") }
            #expect(first.contains(where: Self.isSessionRead))
            // On PostgreSQL nothing is kept yet (`Application.personChanges`).
            #expect(second.contains(where: Self.isSessionRead) == (app.store.schema != nil), "\(second)")
            #expect(again.main.contains("Kim Keeper"))

            // A new name, saved on the phone, is on the laptop's next page.
            #expect(try await phone.saveProfile(["display_name": "Kim Renamed"]).status == .seeOther)
            // In the header, which the kept session fills (the form reads the person afresh anyway).
            #expect(try await laptop.get("/settings/profile").contains(#"<span class="user-name">Kim Renamed</span>"#))

            // A notification counts in the header at once, and reading it clears the count.
            let kim = try #require(try await User.query(on: app.db).filter(\.$username == "kim_k").first()?.requireID())
            try await Notification(recipient: kim, actor: nil, kind: .nudge, text: "Time for a run?", link: "/").create(on: app.db)
            let unread = #"<span class="count">1<span class="visually-hidden"> unread</span>"#
            #expect(try await laptop.get("/").contains(unread))
            _ = try await laptop.get("/notifications")
            try await laptop.post("/notifications/read", [], csrfFrom: "/notifications")
            #expect(try await !laptop.get("/").contains(unread))

            // A new password signs the laptop out at its next request, and signing out ends the
            // phone's own session at once.
            let change = try await phone.post(
                "/settings/password",
                [("current_password", Browser.password), ("new_password", "a-new-long-password"), ("confirm_password", "a-new-long-password")],
                csrfFrom: "/settings/password")
            #expect(change.status == .seeOther)
            let signedOut = try await laptop.get("/settings/profile")
            #expect(signedOut.status == .seeOther && signedOut.location?.hasPrefix("/login") == true)
            #expect(try await phone.get("/settings/profile").status == .ok)
            let cookies = phone.cookies
            try await phone.logOut()
            let replayed = app.browser()
            for (name, value) in cookies { replayed.setCookie(name, value) }
            let afterSignOut = try await replayed.get("/settings/profile")
            #expect(afterSignOut.status == .seeOther && afterSignOut.location?.hasPrefix("/login") == true, "a signed-out cookie is worth nothing")
        }
    }

    /// A change this process did not hear of (another process's, whose signal was lost) can leave
    /// a page a minute behind, never a form: forms read the session and person afresh.
    @Test func aFormChecksThePasswordTheDatabaseHoldsNow() async throws {
        try await withApp { app in
            let kim = app.browser()
            try await kim.signUp("kim_k", name: "Kim Keeper")
            #expect(try await kim.get("/settings/password").status == .ok)
            let elsewhere = try app.app.password.hash("changed-on-another-process")
            try await User.query(on: app.db).filter(\.$username == "kim_k").set(\.$passwordHash, to: elsewhere).update()
            let change = try await kim.post(
                "/settings/password",
                [("current_password", Browser.password), ("new_password", "a-new-long-password"), ("confirm_password", "a-new-long-password")],
                csrfFrom: "/settings/password")
            #expect(change.status == .unprocessableEntity && change.contains("That is not your current password"))
            #expect(try await User.query(on: app.db).filter(\.$username == "kim_k").first()?.passwordHash == elsewhere)
        }
    }

    @Test func aProcessTrustsWhatItKeepsOnlyWhileAloneOnItsStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldhouse-neighbours-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try #require(StoreNeighbours(database: directory + "/fieldhouse.sqlite"))
        #expect(first.alone())
        do {
            let second = try #require(StoreNeighbours(database: directory + "/fieldhouse.sqlite"))
            #expect(!first.alone() && !second.alone())
            #expect(!first.alone() && !second.alone(), "neither is alone while both are there")
        }
        // The other has gone, but it may have written: the first starts afresh, then trusts again.
        #expect(first.alone())
        #expect(first.alone())
    }
}
