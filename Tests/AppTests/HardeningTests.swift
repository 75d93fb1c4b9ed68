@testable import App
import FieldhouseKit
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

extension TestApp {
    /// The server still answers: a trap anywhere in a request would have ended the process.
    func expectServing(after what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let health = try await browser().get("/healthz")
        #expect(health.status == .ok, "the server stopped answering after \(what)", sourceLocation: sourceLocation)
    }
}

/// Each input here once stopped the whole server (a trap), or could have: a person's browser, a
/// phone app or a file must get a 4xx with a reason, or be read, and the server keeps answering.
@Suite("Hardening: no request, file or form stops the server")
struct HardeningTests {
    static func iso(_ date: Date, fraction: String) -> String {
        String(ISO8601DateFormatter().string(from: date).dropLast()) + ".\(fraction)Z"
    }

    @Test func timesWithMicrosecondsAreReadEverywhereATimeIsRead() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let when = app.clock.now.addingTimeInterval(-7200).rounded
            // Python's isoformat(): six fractional digits. The sample that first stopped the server.
            let python = Self.iso(when, fraction: "123456")
            let samples = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [{"t": "\#(python)", "bpm": 72}]}"#)
            #expect(samples.status == .created)
            #expect((samples.json["stored"] as? [String: Int])?["heart_rate"] == 1)
            let form = try await ana.api(.POST, "/api/v1/samples", token: token, form: "t=\(Self.iso(when.addingTimeInterval(1), fraction: "1234567"))&bpm=73")
            #expect(form.status == .created)
            let ble = try await ana.api(
                .POST, "/api/v1/heart-rate/ble", token: token,
                json: #"{"notifications": [{"t": "\#(Self.iso(when.addingTimeInterval(2), fraction: "999999999"))", "hex": "0048"}]}"#)
            #expect(ble.status == .created)
            struct Row: Decodable { let t: Int64 }
            let stored = try await app.db.sql.raw("SELECT t FROM heart_rate_samples ORDER BY t").all(decoding: Row.self)
            let base = Int64(when.timeIntervalSince1970 * 1000)
            #expect(stored.map(\.t) == [base + 123, base + 1_123, base + 2_999])

            let workout = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: """
                    {"external_id": "py-1", "sport": "running", "start": "\(Self.iso(when.addingTimeInterval(600), fraction: "000001"))",
                     "end": "\(Self.iso(when.addingTimeInterval(1800), fraction: "5"))"}
                    """)
            #expect(workout.status == .created)
            #expect(try await ana.api(.GET, "/api/v1/workouts?since=\(Self.iso(when, fraction: "0001"))", token: token).status == .ok)

            var gpx = #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            for second in 0..<30 {
                gpx +=
                    #"<trkpt lat="55.6761" lon="\#(12.5683 + Double(second) * 0.00005)"><time>\#(Self.iso(when.addingTimeInterval(3600 + Double(second)), fraction: "123456"))</time></trkpt>"#
            }
            let upload = try await ana.uploadFile(Array((gpx + "</trkseg></trk></gpx>").utf8), filename: "phone.gpx", token: token)
            #expect(upload.status == .created)
            try await app.expectServing(after: "times with microseconds")
        }
    }

    @Test func hugeNumbersInFormsAreRefusedWithTheirReason() async throws {
        try await withApp { app in
            let ana = app.browser(), cora = app.browser()
            try await ana.signUp("ana")
            try await cora.signUp("cora")
            try await ana.getsCoached(by: cora)

            let huge = "9223372036854775807"
            for (browser, path) in [(ana, "/settings/zones"), (cora, "/coach/athletes/ana/zones")] {
                for fields in [
                    [("max_hr", huge), ("zone5", "100")], [("max_hr", "190"), ("zone1", "100000000000000000")],
                    [("basis", "reserve"), ("resting_hr", huge), ("zone1", "")],
                ] {
                    var all = [
                        ("basis", "max"), ("max_hr", "190"), ("resting_hr", ""), ("zone1", "50"), ("zone2", "60"), ("zone3", "70"),
                        ("zone4", "80"), ("zone5", "90"),
                    ].filter { field in !fields.contains { $0.0 == field.0 } }
                    all += fields
                    let page = try await browser.post(path, all, csrfFrom: path)
                    #expect(page.status == .unprocessableEntity, "\(path) \(fields)")
                    try await app.expectServing(after: "\(path) with \(fields)")
                }
            }
            #expect(try await User.query(on: app.db).filter(\.$username == "ana").first()?.maxHeartRate == nil)

            // A goal of a millionth of a step is a typing mistake, and would divide a page by almost nothing.
            let goal = try await ana.post("/goals", [("period", "week"), ("metric", "steps"), ("target", "0,0000000000000000000001")], csrfFrom: "/goals")
            #expect(goal.status == .unprocessableEntity && goal.contains("Enter a target from 1 to 1,000,000 steps"))
            #expect(try await rowCount("goals", app.db) == 0)
        }
    }

    @Test func aSeriesStartingAtTheEndOfTimeIsRefusedPerItem() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let answer = try await ana.api(.POST, "/api/v1/samples", token: token, form: "start=9223372036854775807&interval=1&bpm=70,71")
            #expect(answer.status.code < 500)
            let reasons = (answer.json["refused"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
            #expect(reasons == ["t", "t"])
            #expect(try await rowCount("heart_rate_samples", app.db) == 0)
            try await app.expectServing(after: "a series from Int64.max")
        }
    }

    @Test func filesWithImpossibleValuesImportWithoutThemAndEveryPageStillDraws() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken(allDay: false)
            let start = app.clock.now.addingTimeInterval(-86_400).rounded
            // Elevation 1e16 on every point made the elevation chart's axis loop for ever; a speed of 1e15 m/s too.
            var gpx = #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Odd</name><trkseg>"#
            for second in 0..<120 {
                let time = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(second)))
                gpx +=
                    #"<trkpt lat="55.6761" lon="\#(12.5683 + Double(second) * 0.00005)"><ele>1e16</ele><time>\#(time)</time><extensions><speed>1e15</speed></extensions></trkpt>"#
            }
            let odd = try await ana.uploadFile(Array((gpx + "</trkseg></trk></gpx>").utf8), filename: "odd.gpx", token: token)
            #expect(odd.status == .created)
            #expect((odd.workout["notes"] as? [String] ?? []).contains { $0.contains("readings outside what a body or a device can produce") })

            // Lap calories of 1e19 trapped converting to Int; 9e18 twice overflowed adding up.
            let tcxStart = start.addingTimeInterval(7200)
            var tcx = #"<TrainingCenterDatabase><Activities><Activity Sport="Biking">"#
            for (lap, calories) in ["1e19", "9e18", "9e18"].enumerated() {
                let lapStart = tcxStart.addingTimeInterval(Double(lap) * 60)
                tcx +=
                    #"<Lap StartTime="\#(ISO8601DateFormatter().string(from: lapStart))"><TotalTimeSeconds>60</TotalTimeSeconds><DistanceMeters>1e300</DistanceMeters><Calories>\#(calories)</Calories><Track>"#
                for second in 0..<60 {
                    tcx +=
                        "<Trackpoint><Time>\(ISO8601DateFormatter().string(from: lapStart.addingTimeInterval(Double(second))))</Time><DistanceMeters>1e300</DistanceMeters><Cadence>90</Cadence></Trackpoint>"
                }
                tcx += "</Track></Lap>"
            }
            let big = try await ana.uploadFile(Array((tcx + "</Activity></Activities></TrainingCenterDatabase>").utf8), filename: "big.tcx", token: token)
            #expect(big.status == .created)
            #expect(big.workout["calories_kcal"] as? Double ?? 0 < 20_000)
            #expect(try await ana.post("/goals", [("period", "week"), ("metric", "calories"), ("target", "500")], csrfFrom: "/goals").status == .seeOther)

            let workouts = try await Workout.query(on: app.db).all()
            #expect(workouts.count >= 2, "the pages below are read for \(workouts.count) workouts")
            for workout in workouts {
                let id = try workout.requireID().uuidString.lowercased()
                #expect(workout.distance.map { $0 <= 1_000_000 } ?? true)
                for path in ["/workouts/\(id)", "/api/v1/workouts/\(id)/streams?keys=time,altitude,speed,cadence&resolution=full"] {
                    let page = path.hasPrefix("/api") ? try await ana.api(.GET, path, token: token) : try await ana.get(path)
                    #expect(page.status == .ok, "\(path)")
                }
            }
            for path in ["/workouts", "/workouts?group=month", "/stats", "/goals", "/"] {
                #expect(try await ana.get(path).status == .ok, "\(path)")
            }
            try await app.expectServing(after: "files with impossible values")
        }
    }

    @Test func hostileFilesAreRefusedWithAReasonAndStoreNothing() async throws {
        try await withApp(config: { $0.maxActivityFileBytes = 2 * 1_048_576 }) { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let gpx = syntheticGPX(start: app.clock.now.addingTimeInterval(-3600).rounded, seconds: 60)

            let twice = try await ana.uploadFile(try gzip(try gzip(gpx)), filename: "twice.gpx.gz", token: token)
            #expect(twice.status == .unprocessableEntity && twice.errorMessage.contains("compressed twice"))

            // A few kilobytes that expand past the server's file limit.
            let bomb = try await ana.uploadFile(try gzip(Array(repeating: 0x20, count: 3 * 1_048_576)), filename: "bomb.gpx.gz", token: token)
            #expect(bomb.status == .payloadTooLarge && bomb.errorMessage.contains("expands to more than 2 MB"))

            let deep =
                "<?xml version=\"1.0\"?><gpx version=\"1.1\">" + String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000) + "</gpx>"
            let nested = try await ana.uploadFile(Array(deep.utf8), filename: "deep.gpx", token: token)
            #expect(nested.status == .unprocessableEntity && nested.errorMessage.contains("nested more than 64 deep"))

            let longAgo = syntheticGPX(start: Date(timeIntervalSince1970: -2_147_483_648), seconds: 10)
            let clock = try await ana.uploadFile(longAgo, filename: "1901.gpx", token: token)
            #expect(clock.status == .unprocessableEntity && clock.errorMessage.contains("check the device's clock"))

            var week = #"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg>"#
            for day in [0.0, 8] {
                let time = ISO8601DateFormatter().string(from: app.clock.now.addingTimeInterval(-9 * 86_400 + day * 86_400))
                week +=
                    #"<trkpt lat="55.6" lon="12.5"><time>\#(time)</time></trkpt><trkpt lat="55.6" lon="12.5001"><time>\#(time.replacingOccurrences(of: "Z", with: ".5Z"))</time></trkpt>"#
            }
            let long = try await ana.uploadFile(Array((week + "</trkseg></trk></gpx>").utf8), filename: "week.gpx", token: token)
            #expect(long.status == .unprocessableEntity && long.errorMessage.contains("more than the 7 days"))

            #expect(try await rowCount("workouts", app.db) == 0)
            #expect(try await rowCount("location_samples", app.db) == 0)
            try await app.expectServing(after: "hostile files")
        }
    }

    @Test func anAnonymousUploadIsRefusedBeforeItsBodyIsRead() async throws {
        try await withApp(config: { $0.maxUploadBytes = 1_048_576 }) { app in
            // No session and no token cookie: the body cannot pass the CSRF check, so it is not read.
            // (Were it read first, 2 MB against a 1 MB limit would answer 413.)
            let stranger = app.browser()
            let page = try await stranger.multipart(
                "/signup", fields: [("username", "x")],
                file: ("avatar", "a.jpg", "image/jpeg", Array(repeating: 0xFF, count: 2 * 1_048_576)), csrfFrom: nil)
            #expect(page.status == .forbidden)
            try await app.expectServing(after: "an anonymous multipart post")
        }
    }

    @Test func twoPhotosInOneChallengeFormDoNotStopTheServer() async throws {
        try await withApp { app in
            let maya = app.browser(), ben = app.browser()
            try await maya.signUp("maya")
            try await ben.signUp("ben")
            let webp = try fixtureFile("photos/geotagged.webp")
            try await maya.befriend(ben, "ben", me: "maya")
            let page = try await maya.multipartFiles(
                "/challenges/new",
                fields: [
                    ("key", UUID().uuidString), ("caption", "Two photos"), ("to", "ben"), ("location", "none"),
                ], files: [("photo", "a.webp", "image/webp", webp), ("photo", "b.webp", "image/webp", [0x52, 0x49])], csrfFrom: "/challenges/new")
            #expect(page.status.code < 500)
            try await app.expectServing(after: "two photo parts in one form")
        }
    }
}
