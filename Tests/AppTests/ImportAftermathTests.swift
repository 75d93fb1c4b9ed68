@testable import App
import Foundation
import Testing
import Vapor

/// What follows a recorded workout (goals announced, badges checked: `WorkoutRecorded`) follows a
/// file only when it added something: a file already there records nothing.
@Suite("After an import: what follows a new workout, and not a file already there")
struct ImportAftermathTests {
    /// A goal set after a walk was imported is reached by that walk, but uploading the walk's file
    /// again (to the device API or the import page) announces nothing; the next new walk announces
    /// it, once.
    @Test func aFileAlreadyThereAnnouncesNoGoal() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let announced = "You reached your daily goal of 20 min. Well done!"
            func announcements() async throws -> Int {
                try await ana.get("/notifications").body.components(separatedBy: announced).count - 1
            }

            let walk = ImportFilesTests.walkGPX(start: app.clock.now.addingTimeInterval(-7200), seconds: 1800)
            #expect(try await ana.uploadFile(walk, filename: "walk.gpx", token: token).status == .created)
            let goal = try await ana.post("/goals", [("period", "day"), ("metric", "duration"), ("target", "20")], csrfFrom: "/goals")
            #expect(goal.status == .seeOther)

            let again = try await ana.uploadFile(walk, filename: "walk.gpx", token: token)
            #expect(again.status == .ok && again.json["duplicate"] as? Bool == true)
            #expect(try await announcements() == 0, "the device API's duplicate recorded nothing")
            let page = try await ana.multipartFiles(
                "/workouts/import", fields: [], files: [("files", "walk.gpx", "application/gpx+xml", walk)], csrfFrom: "/workouts/import")
            #expect(page.status == .ok && page.contains("this file was imported before"))
            #expect(try await announcements() == 0, "the import page's duplicate recorded nothing")

            let later = ImportFilesTests.walkGPX(start: app.clock.now.addingTimeInterval(-3600), seconds: 600)
            #expect(try await ana.uploadFile(later, filename: "later.gpx", token: token).status == .created)
            #expect(try await announcements() == 1, "a new walk is recorded, and the goal it completes announced")
            #expect(try await ana.uploadFile(later, filename: "later.gpx", token: token).json["duplicate"] as? Bool == true)
            #expect(try await announcements() == 1)
        }
    }
}
