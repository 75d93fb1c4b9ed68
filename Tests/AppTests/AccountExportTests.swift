@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// `/settings/export`: one ZIP with everything held about the person, read back by another ZIP
/// implementation (Python's zipfile, which checks every CRC), and for nobody else.
@Suite struct AccountExportTests {
    /// Entry names with their text (JSON, CSV, GPX, README) or byte count (photos).
    static func readZip(_ bytes: [UInt8]) throws -> [String: String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                names = [i.filename for i in z.infolist()]
                # A second entry of one name wins on extraction and hides the first.
                assert len(names) == len(set(names)), "duplicate entries: %s" % sorted(n for n in names if names.count(n) > 1)
                out = {}
                for i in z.infolist():
                    data = z.read(i)
                    out[i.filename] = data.decode("utf-8") if i.filename.endswith((".json", ".csv", ".gpx", ".txt")) else str(len(data))
                print(json.dumps(out))
            """, path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode([String: String].self, from: data)
    }

    @Test func anExportHoldsEverythingAndOnlyItsOwnerGetsIt() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let ana = cast.ana
            let token = try await ana.deviceToken()
            let start = app.clock.milliseconds - 7_200_000
            let hr = (0..<120).map { #"{"t": \#(start + Int64($0) * 1000), "bpm": \#(100 + $0 % 40)}"# }.joined(separator: ",")
            let points = (0..<120).map { #"{"t": \#(start + Int64($0) * 1000), "lat": \#(55.68 + Double($0) * 0.0001), "lon": 12.57}"# }.joined(separator: ",")
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [\#(hr)], "locations": [\#(points)]}"#).status == .created)
            #expect(
                try await ana.api(
                    .POST, "/api/v1/workouts", token: token,
                    json: #"{"external_id": "run1", "sport": "running", "start": \#(start), "end": \#(start + 119_000)}"#
                ).status == .created)
            #expect(try await ana.sendChallenge(to: ["ben"], caption: "Bridge at dawn").status == .seeOther)
            // A comment in each thread: the feed's (Community) and the coach's (Coaching).
            let run = try #require(try await Workout.query(on: app.db).filter(\.$externalID == "run1").first())
            let subject = "workout:" + SiteURL.id(try run.requireID())
            #expect(try await ana.post("/comments", [("on", subject), ("body", "Felt strong")], csrfFrom: "/feed").status == .seeOther)
            let coach = app.browser()
            try await coach.signUp("cora")
            try await ana.getsCoached(by: coach)
            #expect(
                try await coach.post(
                    "/workouts/\(SiteURL.id(try run.requireID()))/comments", [("body", "Easy next time"), ("audience", "coaches")],
                    csrfFrom: "/workouts/\(SiteURL.id(try run.requireID()))"
                ).status
                    == .seeOther)

            #expect(try await ana.get("/settings/export").contains("Prepare my export"))
            #expect(try await cast.ben.get("/settings/export/download").status == .notFound, "nothing made yet, and never Ana's")
            let asked = try await ana.post("/settings/export", [], csrfFrom: "/settings/export")
            #expect(asked.status == .seeOther)
            try await app.app.jobs.runDue(app.app)
            let page = try await ana.get("/settings/export")
            #expect(page.contains("href=\"/settings/export/download\""))

            let download = try await ana.get("/settings/export/download")
            #expect(download.status == .ok)
            #expect(download.headers.first(name: .contentDisposition) == "attachment; filename=\"fieldhouse-ana.zip\"")
            #expect(download.headers.first(name: .cacheControl) == "private, no-store")
            let entries = try Self.readZip(download.bytes)
            #expect(entries["profile.json"]?.contains("\"username\" : \"ana\"") == true)
            // Every feature writes what it lists in the README: a hook that fell back to the
            // protocol's empty default would leave its files out.
            var listed = 0
            for feature in Features.all {
                for entry in feature.archiveEntries {
                    for path in entry.path.components(separatedBy: ", ") {
                        listed += 1
                        #expect(
                            entries.keys.contains { $0 == path || (path.hasSuffix("/") && $0.hasPrefix(path)) }, "\(feature) lists \(path) but wrote nothing")
                    }
                    #expect(entries["README.txt"]?.contains(entry.holds) == true)
                }
            }
            #expect(listed > 15, "the features list only \(listed) paths")
            #expect(entries["profile.json"]?.contains("password") == false)
            #expect(entries["samples/heart_rate_samples.csv"]?.split(separator: "\n").count == 121)
            #expect(entries["samples/location_samples.csv"]?.split(separator: "\n").count == 121)
            #expect(entries["workouts.json"]?.contains("run1") == true)
            let gpx = try #require(entries.first { $0.key.hasPrefix("workouts/") && $0.key.hasSuffix(".gpx") }?.value)
            #expect(gpx.components(separatedBy: "<trkpt").count - 1 == 120)
            #expect(gpx.contains("<gpxtpx:hr>"))
            #expect(entries["challenges/sent.json"]?.contains("Bridge at dawn") == true)
            let photo = try #require(entries.first { $0.key.hasPrefix("photos/") && $0.key.hasSuffix(".jpg") })
            #expect(Int(photo.value) == (try fixturePhoto("geotagged_sony.jpg")).count, "the original as uploaded")
            #expect(entries["README.txt"] != nil)
            // Compared with the database: every comment Ana wrote, in its own file.
            func array(_ name: String) throws -> [[String: Any]] {
                let text = try #require(entries[name], "\(name) missing")
                return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            }
            let authorID = try #require(try await User.query(on: app.db).filter(\.$username == "ana").first()?.id)
            let feedComments = try await FeedComment.query(on: app.db).filter(\.$author.$id == authorID).all()
            #expect(try array("comments.json").count == feedComments.count && feedComments.count == 1)
            #expect(entries["comments.json"]?.contains("Felt strong") == true)
            #expect(try array("coaching/comments.json").count == (try await WorkoutComment.query(on: app.db).filter(\.$author.$id == authorID).count()))

            // Nobody else reaches it: Ben's download is his own (none), and signed out is refused.
            #expect(try await cast.ben.get("/settings/export/download").status == .notFound)
            #expect(try await app.browser().get("/settings/export/download").status != .ok)

            // A week later the file is gone from the server and the page offers a new one.
            #expect(page.contains("kept until"))
            let anaID = try #require(try await User.query(on: app.db).filter(\.$username == "ana").first()?.requireID())
            let path = AccountExport.path(for: anaID, config: app.store.config)
            try FileManager.default.setAttributes([.modificationDate: app.clock.now.addingTimeInterval(-AccountExport.keptFor - 60)], ofItemAtPath: path)
            #expect(try await ana.get("/settings/export/download").status == .notFound)
            #expect(!FileManager.default.fileExists(atPath: path))
            let later = try await ana.get("/settings/export")
            #expect(!later.contains("/settings/export/download") && later.contains("Prepare my export"))

            // The hourly sweep takes old exports nobody asked for again, never one being written.
            FileManager.default.createFile(atPath: path, contents: Data("old".utf8))
            try FileManager.default.setAttributes([.modificationDate: app.clock.now.addingTimeInterval(-AccountExport.keptFor - 60)], ofItemAtPath: path)
            let writing = path + ".\(UUID().uuidString.lowercased()).part", abandoned = path + ".\(UUID().uuidString.lowercased()).part"
            FileManager.default.createFile(atPath: writing, contents: Data("writing".utf8))
            try FileManager.default.setAttributes([.modificationDate: app.clock.now.addingTimeInterval(-60)], ofItemAtPath: writing)
            FileManager.default.createFile(atPath: abandoned, contents: Data("its process died".utf8))
            try FileManager.default.setAttributes(
                [.modificationDate: app.clock.now.addingTimeInterval(-app.app.config.jobLeaseSeconds - 60)], ofItemAtPath: abandoned)
            AccountExport.removeExpired(config: app.app.config, now: app.clock.now)
            #expect(!FileManager.default.fileExists(atPath: path) && FileManager.default.fileExists(atPath: writing))
            #expect(!FileManager.default.fileExists(atPath: abandoned), "a half-made file untouched for longer than a lease is gone")
        }
    }
}
