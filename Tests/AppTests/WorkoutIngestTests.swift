@testable import App
import FieldhouseKit
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

/// An activity file from `Tests/Fixtures`.
func fixtureFile(_ path: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/\(path)")
    return Array(try Data(contentsOf: url))
}

extension Browser {
    /// A device uploading a file to `/api/v1/uploads`.
    func uploadFile(_ data: [UInt8], filename: String, token: String?, fields: [(String, String)] = []) async throws -> Page {
        var headers = HTTPHeaders()
        if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
        return try await multipart(
            "/api/v1/uploads", fields: fields, file: ("file", filename, "application/octet-stream", data),
            csrfFrom: nil, headers: headers)
    }
}

extension Browser.Page {
    var workout: [String: Any] { json["workout"] as? [String: Any] ?? [:] }
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
}

func rowCount(_ table: String, _ db: any Database) async throws -> Int {
    struct Row: Decodable { let n: Int }
    return try await db.sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decoding: Row.self)?.n ?? -1
}

/// A GPX track written by the test: one point a second going east along a parallel.
func syntheticGPX(start: Date, seconds: Int, sport: String = "running", heartRate: Int? = nil) -> [UInt8] {
    let formatter = ISO8601DateFormatter()
    var text =
        #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>\#(sport)</type><trkseg>"#
    for second in 0...seconds {
        let time = formatter.string(from: start.addingTimeInterval(Double(second)))
        let hr = heartRate.map { "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\($0)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>" } ?? ""
        text += #"<trkpt lat="55.6761" lon="\#(12.5683 + Double(second) * 0.00005)"><ele>10</ele><time>\#(time)</time>\#(hr)</trkpt>"#
    }
    return Array((text + "</trkseg></trk></gpx>").utf8)
}

/// A TCX of heart rate only (a strap's recording): trackpoints without positions.
func syntheticHeartRateTCX(start: Date, seconds: Int, bpm: Int) -> [UInt8] {
    let formatter = ISO8601DateFormatter()
    var text =
        #"<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Running"><Id>x</Id><Lap StartTime="\#(formatter.string(from: start))"><Track>"#
    for second in stride(from: 0, through: seconds, by: 1) {
        text +=
            "<Trackpoint><Time>\(formatter.string(from: start.addingTimeInterval(Double(second))))</Time><HeartRateBpm><Value>\(bpm)</Value></HeartRateBpm></Trackpoint>"
    }
    return Array((text + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>").utf8)
}

@Suite("Device API: workouts and file uploads")
struct WorkoutIngestTests {
    @Test func aFITRunBecomesAWorkoutOnceWithTheReferenceValues() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken(named: "Fenix 5")
            let file = try fixtureFile("fit/garmin-fenix-5-run.fit")
            let first = try await ana.uploadFile(file, filename: "run.fit", token: token)
            #expect(first.status == .created)
            let w = first.workout
            #expect(w["sport"] as? String == "running")
            #expect(w["start"] as? String == "2017-06-11T14:34:09Z")
            #expect(w["end"] as? String == "2017-06-11T14:35:06Z")
            #expect(w["duration_s"] as? Double == 57)
            #expect(abs((w["distance_m"] as? Double ?? 0) - 157.56) < 0.01)
            #expect(w["avg_hr"] as? Int == 85 && w["max_hr"] as? Int == 112)
            #expect((w["streams"] as? [String] ?? []).contains("heartrate"))
            #expect(w.keys.contains("steps") && w["steps"] is NSNull, "absent values are null, not missing")
            #expect(try await rowCount("location_samples", app.db) == 21)

            let again = try await ana.uploadFile(file, filename: "run-copy.fit", token: token)
            #expect(again.status == .ok)
            #expect(again.json["duplicate"] as? Bool == true)
            #expect(again.workout["id"] as? String == w["id"] as? String)
            #expect(try await rowCount("workouts", app.db) == 1)
            #expect(try await rowCount("location_samples", app.db) == 21)
        }
    }

    @Test func theSameRunAsFITAndAsGPXIsOneWorkout() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let fit = try await ana.uploadFile(try fixtureFile("fit/activity-small-fenix2-run.fit"), filename: "run.fit", token: token)
            #expect(fit.status == .created)
            #expect(abs((fit.workout["distance_m"] as? Double ?? 0) - 9007.07) < 0.01)
            #expect(fit.workout["max_hr"] as? Int == 178)
            let gpx = try await ana.uploadFile(try fixtureFile("gpx/fenix2-run-with-hr.gpx"), filename: "run.gpx", token: token)
            #expect(gpx.status == .ok)
            #expect(gpx.json["duplicate"] as? Bool == true)
            #expect(gpx.json["duplicate_reason"] as? String == "overlap")
            #expect(gpx.workout["id"] as? String == fit.workout["id"] as? String)
            #expect(try await rowCount("workouts", app.db) == 1)
        }
    }

    @Test func aStrapsHeartRateIsMergedOntoAPhonesRunButNeverInterleaved() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = app.clock.now.addingTimeInterval(-7200).rounded
            let gps = try await ana.uploadFile(syntheticGPX(start: start, seconds: 600), filename: "phone.gpx", token: token)
            #expect(gps.status == .created)
            #expect(gps.workout["avg_hr"] is NSNull)

            let strap = try await ana.uploadFile(
                syntheticHeartRateTCX(start: start.addingTimeInterval(-30), seconds: 700, bpm: 150),
                filename: "strap.tcx", token: token)
            #expect(strap.status == .ok)
            #expect(strap.json["merged"] as? [String] == ["heartrate"])
            #expect(strap.workout["avg_hr"] as? Int == 150)
            // Only the samples inside the run's window were taken.
            #expect(try await rowCount("heart_rate_samples", app.db) == 601)

            // A second phone's track of the same run adds nothing: positions come from one source.
            var other = syntheticGPX(start: start.addingTimeInterval(0.5), seconds: 600, heartRate: 120)
            other += Array("<!-- another phone -->".utf8)
            let second = try await ana.uploadFile(other, filename: "other.gpx", token: token)
            #expect(second.json["duplicate"] as? Bool == true)
            #expect(try await rowCount("location_samples", app.db) == 601)
            #expect(try await rowCount("heart_rate_samples", app.db) == 601)
        }
    }

    @Test func brokenAndForeignFilesAreRefusedAndNothingIsStored() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let text = try await ana.uploadFile(Array("just some notes".utf8), filename: "notes.txt", token: token)
            #expect(text.status == .unsupportedMediaType)
            #expect(text.errorCode == "unsupported_file_type")
            #expect(((text.json["error"] as? [String: Any])?["accepted"] as? [String] ?? []).contains("FIT (.fit)"))

            let cut = try await ana.uploadFile(try fixtureFile("fit/activity-unexpected-eof.fit"), filename: "cut.fit", token: token)
            #expect(cut.status == .unprocessableEntity && cut.errorCode == "truncated_file")
            #expect(cut.errorMessage.contains("incomplete"))
            let corrupt = try await ana.uploadFile(try fixtureFile("fit/activity-settings-corruptheader.fit"), filename: "c.fit", token: token)
            #expect(corrupt.status == .unprocessableEntity && corrupt.errorCode == "corrupt_file")
            let settings = try await ana.uploadFile(try fixtureFile("fit/Settings.fit"), filename: "Settings.fit", token: token)
            #expect(settings.status == .unprocessableEntity && settings.errorMessage.contains("not an activity file"))
            let gpx = try fixtureFile("gpx/fenix2-run-with-hr.gpx")
            let half = try await ana.uploadFile(Array(gpx.prefix(gpx.count / 2)), filename: "half.gpx", token: token)
            #expect(half.status == .unprocessableEntity && half.errorCode == "truncated_file")
            let empty = try await ana.uploadFile([], filename: "empty.gpx", token: token)
            #expect(empty.status == .badRequest)
            let noToken = try await ana.uploadFile(gpx, filename: "run.gpx", token: nil)
            #expect(noToken.status == .unauthorized)
            let badSport = try await ana.uploadFile(gpx, filename: "run.gpx", token: token, fields: [("sport", "quidditch")])
            #expect(badSport.status == .unprocessableEntity && badSport.errorMessage.contains("running"))

            for table in ["workouts", "workout_files", "location_samples", "heart_rate_samples", "cadence_samples", "routes"] {
                #expect(try await rowCount(table, app.db) == 0, "\(table)")
            }
            // The server kept serving.
            #expect(try await ana.get("/healthz").status == .ok)
        }
    }

    @Test func oversizeUploadsGet413() async throws {
        try await withApp(config: { $0.maxActivityFileBytes = 1024 * 1024 }) { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let big = [UInt8](repeating: 0x20, count: 2 * 1024 * 1024)
            let answer = try await ana.uploadFile(big, filename: "big.gpx", token: token)
            #expect(answer.status == .payloadTooLarge && answer.errorCode == "too_large")
        }
    }

    @Test func gzipFilesRoutesAndTCX() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let packed = try gzip(try fixtureFile("gpx/cerknicko-jezero.gpx"))
            let lake = try await ana.uploadFile(packed, filename: "lake.gpx.gz", token: token, fields: [("sport", "walking"), ("name", "Round the lake")])
            #expect(lake.status == .created)
            #expect(lake.workout["name"] as? String == "Round the lake")
            #expect(lake.workout["sport"] as? String == "walking")
            #expect(abs((lake.workout["distance_m"] as? Double ?? 0) - 4580.1) / 4580.1 < 0.01)
            // A stale fix after a 44-second gap, 184 m off in 2 s, made a top speed of 126 km/h: it is left out.
            #expect((lake.workout["max_speed_mps"] as? Double ?? 99) <= Plausible.topSpeed(.walking))
            #expect((lake.workout["notes"] as? [String] ?? []).contains("One position or speed reading too fast for the sport (a GPS jump) was left out."))

            let route = try await ana.uploadFile(try fixtureFile("gpx/route.gpx"), filename: "route.gpx", token: token)
            #expect(route.status == .created)
            #expect(((route.json["route"] as? [String: Any])?["distance_m"] as? Double ?? 0) > 1000)
            #expect(route.json["workout"] == nil)
            let again = try await ana.uploadFile(try fixtureFile("gpx/route.gpx"), filename: "route.gpx", token: token)
            #expect(again.status == .ok && again.json["duplicate"] as? Bool == true)

            let tcx = try await ana.uploadFile(try fixtureFile("tcx/test.tcx"), filename: "test.tcx", token: token)
            #expect(tcx.status == .created)
            #expect(tcx.workout["max_hr"] as? Int == 189)
            // The same run without heart rate, for someone else (Ana's would show her heart rate of that time).
            let ben = app.browser()
            try await ben.signUp("ben")
            let noHR = try await ben.uploadFile(try fixtureFile("tcx/no_hr.tcx"), filename: "no_hr.tcx", token: try await ben.deviceToken())
            #expect(noHR.status == .created)
            #expect(noHR.workout["avg_hr"] is NSNull)
            #expect(!(noHR.workout["streams"] as? [String] ?? []).contains("heartrate"))
        }
    }

    @Test func devicesStartFinishAndCreateWorkoutsIdempotently() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = app.clock.now.addingTimeInterval(-3600).rounded
            let startMS = Int64(start.timeIntervalSince1970 * 1000)
            let started = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: #"{"external_id": "phone-42", "sport": "running", "start": \#(startMS)}"#)
            #expect(started.status == .created)
            #expect(started.workout["status"] as? String == "recording")
            let retry = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: #"{"external_id": "phone-42", "sport": "running", "start": \#(startMS)}"#)
            #expect(retry.status == .ok && retry.workout["id"] as? String == started.workout["id"] as? String)

            // Heart rate posted while it runs, then the finish.
            let samples = (0..<600).map { #"{"t": \#(startMS + Int64($0) * 1000), "bpm": \#(140 + $0 % 3)}"# }.joined(separator: ",")
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [\#(samples)]}"#).status == .created)
            let finished = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: #"{"external_id": "phone-42", "end": \#(startMS + 600_000)}"#)
            #expect(finished.status == .ok)
            #expect(finished.workout["status"] as? String == "finished")
            #expect(finished.workout["duration_s"] as? Double == 600)
            #expect(finished.workout["avg_hr"] as? Int == 141 && finished.workout["max_hr"] as? Int == 142)
            #expect(try await rowCount("workouts", app.db) == 1)

            // Bad input: clear errors.
            let backwards = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: #"{"sport": "running", "start": \#(startMS), "end": \#(startMS - 1000)}"#)
            #expect(backwards.status == .unprocessableEntity && backwards.errorMessage.contains("after start"))
            #expect(try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": 5}"#).status == .badRequest)
            #expect(try await ana.api(.POST, "/api/v1/workouts", token: token, json: "{nope").status == .badRequest)
            let future = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "running", "start": "2999-01-01T00:00:00Z"}"#)
            #expect(future.status == .unprocessableEntity)

            // Read back: list, one, and someone else cannot.
            let id = try #require(finished.workout["id"] as? String)
            let list = try await ana.api(.GET, "/api/v1/workouts?since=\(startMS - 1)", token: token)
            #expect((list.json["workouts"] as? [[String: Any]])?.count == 1)
            #expect(try await ana.api(.GET, "/api/v1/workouts/\(id)", token: token).workout["id"] as? String == id)
            let ben = app.browser()
            try await ben.signUp("ben")
            let bensToken = try await ben.deviceToken()
            #expect(try await ben.api(.GET, "/api/v1/workouts/\(id)", token: bensToken).status == .notFound)
            #expect(try await ben.api(.GET, "/api/v1/workouts/\(id)/streams", token: bensToken).status == .notFound)
            #expect((try await ben.api(.GET, "/api/v1/workouts", token: bensToken).json["workouts"] as? [Any])?.count == 0)
        }
    }

    @Test func streamsAreAlignedAndDownsampled() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let ride = try await ana.uploadFile(try fixtureFile("fit/garmin-edge-500-activity.fit"), filename: "ride.fit", token: token)
            #expect(ride.status == .created)
            #expect(abs((ride.workout["distance_m"] as? Double ?? 0) - 92622.34) < 0.01)
            let id = try #require(ride.workout["id"] as? String)

            let full = try await ana.api(.GET, "/api/v1/workouts/\(id)/streams", token: token)
            let size = try #require(full.json["original_size"] as? Int)
            #expect(size >= 10_600)
            #expect((full.json["time"] as? [Double])?.count == size)
            #expect((full.json["time"] as? [Double])?.first == 0)

            let low = try await ana.api(.GET, "/api/v1/workouts/\(id)/streams?keys=time,latlng,heartrate,altitude&resolution=low", token: token)
            #expect(low.json["resolution"] as? String == "low")
            let times = try #require(low.json["time"] as? [Double])
            #expect(times.count == 100)
            #expect((low.json["latlng"] as? [Any])?.count == 100)
            #expect((low.json["heartrate"] as? [Any])?.count == 100)
            #expect((low.json["altitude"] as? [Any])?.count == 100)
            #expect(low.json["cadence"] == nil, "only the keys asked for")
            #expect(times == times.sorted())
            #expect((low.json["heartrate"] as? [Int])?.max() == 189, "LTTB keeps the peak")

            let unknown = try await ana.api(.GET, "/api/v1/workouts/\(id)/streams?keys=time,watts", token: token)
            #expect(unknown.status == .badRequest && unknown.errorMessage.contains("watts"))
            #expect(try await ana.api(.GET, "/api/v1/workouts/\(id)/streams?resolution=huge", token: token).status == .badRequest)
        }
    }
}

extension Date {
    /// Whole seconds, as files store them.
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

/// gzip as the command-line tool writes it.
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let input = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try Data(bytes).write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", input.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Array(data)
}

@Suite("Importing workouts in the browser")
struct WorkoutImportPageTests {
    @Test func severalFilesAtOnceEachWithItsOwnOutcome() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let form = try await ana.get("/workouts/import")
            #expect(form.status == .ok)
            #expect(form.contains(#"type="file" multiple"#) && form.contains("data-progress") && form.contains(#"<label for="files">"#))

            let token = try #require(form.csrf)
            let boundary = "----fieldhouse-import"
            var body = ByteBuffer()
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(token)\r\n")
            let files: [(String, [UInt8])] = [
                ("run.fit", try fixtureFile("fit/garmin-fenix-5-run.fit")),
                ("same-run.fit", try fixtureFile("fit/garmin-fenix-5-run.fit")),
                ("cut.fit", try fixtureFile("fit/activity-unexpected-eof.fit")),
                ("<script>alert(1)</script>.gpx", try fixtureFile("gpx/route.gpx")),
            ]
            for (name, data) in files {
                body.writeString(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"files\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                body.writeBytes(data)
                body.writeString("\r\n")
            }
            body.writeString("--\(boundary)--\r\n")
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
            let page = try await ana.send(.POST, "/workouts/import", headers: headers, body: body)
            #expect(page.status == .ok)
            #expect(page.contains("4 files: 2 imported, 1 already there, 1 not imported."), "a duplicate is not counted as imported")
            #expect(page.contains("Imported “"))
            #expect(page.contains("Already there") && page.contains("this file was imported before"))
            #expect(page.contains("The file is incomplete"))
            #expect(page.contains("Saved the route"))
            #expect(!page.contains("<script>alert(1)</script>") && page.contains("&lt;script&gt;"))
            #expect(try await rowCount("workouts", app.db) == 1)

            // Without a CSRF token nothing is read.
            let stranger = try await ana.multipart(
                "/workouts/import", fields: [],
                file: ("files", "run.gpx", "application/gpx+xml", syntheticGPX(start: app.clock.now.addingTimeInterval(-9000), seconds: 60)), csrfFrom: nil)
            #expect(stranger.status == .forbidden)
            #expect(try await rowCount("workouts", app.db) == 1)
            // Signed out: sent to sign in.
            let out = app.browser()
            #expect(try await out.get("/workouts/import").status == .seeOther)
        }
    }

    /// An adult with a public profile who imports a batch of old files gets them shown to followers
    /// unless they choose otherwise; each result links to what the file became.
    @Test func importsDefaultToFollowersAndLinkToTheirWorkouts() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let form = try await ana.get("/workouts/import")
            #expect(form.contains(#"value="followers" checked"#) && form.contains(#"value="public""#))

            let start = app.clock.now.addingTimeInterval(-86_400)
            let page = try await ana.multipart(
                "/workouts/import", fields: [],
                file: ("files", "Track_0001.gpx", "application/gpx+xml", syntheticGPX(start: start, seconds: 600, sport: "cycling")),
                csrfFrom: "/workouts/import")
            #expect(page.status == .ok && page.contains("1 file imported."))
            // Named after the sport the file's type gives and the time, not the file.
            #expect(page.contains("ride”</a>") && !page.contains("“Track_0001"))
            let link = try #require(page.firstMatch(#"<a href="(/workouts/[0-9a-f-]{36})">Imported"#))
            let workout = try await ana.get(link)
            #expect(workout.status == .ok && workout.contains("Cycling"))
            #expect(page.firstMatch(#"Cycling · ([A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d) · "#) != nil, "the date as pages write dates")
            #expect(try await Workout.query(on: app.db).first()?.visibility == .followers)
            // A visitor does not see it.
            #expect(try await app.browser().get(link).status != .ok)

            // Chosen for the batch: everyone.
            let open = try await ana.multipart(
                "/workouts/import", fields: [("visibility", "public")],
                file: ("files", "later.gpx", "application/gpx+xml", syntheticGPX(start: start.addingTimeInterval(3600), seconds: 600)),
                csrfFrom: "/workouts/import")
            #expect(open.contains(#"value="public" checked"#))
            let openLink = try #require(open.firstMatch(#"<a href="(/workouts/[0-9a-f-]{36})">Imported"#))
            #expect(try await app.browser().get(openLink).status == .ok)

            // Someone under 16 is not offered everyone, and a forged choice imports nothing.
            let teen = app.browser()
            try await teen.signUp("teen", birthDate: "2013-03-01")
            let teenForm = try await teen.get("/workouts/import")
            #expect(teenForm.contains(#"value="private" checked"#) && !teenForm.contains(#"value="public""#))
            let forged = try await teen.multipart(
                "/workouts/import", fields: [("visibility", "public")],
                file: ("files", "run.gpx", "application/gpx+xml", syntheticGPX(start: start, seconds: 600)), csrfFrom: "/workouts/import")
            #expect(forged.status == .unprocessableEntity && forged.contains("Choose who can see the workouts"))
            #expect(try await rowCount("workouts", app.db) == 2)
        }
    }
}
