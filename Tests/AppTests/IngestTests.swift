@testable import App
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

extension Browser {
    /// Creates a device token through Settings → Devices and returns it. Most devices in these
    /// tests are straps worn all day, so continuous monitoring is switched on for their owner
    /// (directly: the profile form would also reset the age and weight the summaries use).
    func deviceToken(named name: String = "Polar strap", allDay: Bool = true) async throws -> String {
        let page = try await post("/settings/devices", [("name", name)], csrfFrom: "/settings/devices")
        #expect(page.status == .ok)
        #expect(page.headers.first(name: .cacheControl) == "no-store")
        if allDay {
            let username = try #require(username)
            try await User.query(on: app.db).filter(\.$username == username).set(\.$continuousHeartRate, to: true).update()
        }
        return try #require(page.firstMatch(#"id="token" class="mono copy-field" readonly value="([^"]+)""#))
    }

    /// A device's request: no cookies, a bearer token.
    func api(_ method: HTTPMethod, _ path: String, token: String?, json: String? = nil, form: String? = nil) async throws -> Page {
        var headers = HTTPHeaders()
        if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
        if json != nil { headers.replaceOrAdd(name: .contentType, value: "application/json") }
        if form != nil { headers.replaceOrAdd(name: .contentType, value: "application/x-www-form-urlencoded") }
        return try await send(method, path, headers: headers, body: (json ?? form).map { ByteBuffer(string: $0) })
    }
}

extension Browser.Page {
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}

private func count(_ table: String, _ db: any Database) async throws -> Int {
    struct Row: Decodable { let n: Int }
    return try await db.sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decoding: Row.self)?.n ?? -1
}

@Suite("Device API: tokens and samples")
struct IngestTests {
    /// An hour ago on the app's clock, as a device writes a time.
    static func hourAgo(_ app: TestApp) -> String { ISO8601DateFormatter().string(from: app.clock.now.addingTimeInterval(-3600)) }

    @Test func tokensAreShownOnceStoredHashedAndRevocable() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let list = try await ana.get("/settings/devices")
            #expect(list.contains("Polar strap") && list.contains("Never"))
            #expect(!list.contains(token), "the token is shown only once")
            let row = try #require(try await DeviceToken.query(on: app.db).first())
            #expect(row.tokenHash != token && row.tokenHash == RandomToken.hash(token))

            let device = app.browser()
            let body = #"{"heart_rate": [{"t": "\#(Self.hourAgo(app))", "bpm": 72}]}"#
            for bad in [nil, "nonsense", token + "x"] {
                let answer = try await device.api(.POST, "/api/v1/samples", token: bad, json: body)
                #expect(answer.status == .unauthorized)
                #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "unauthorized")
            }
            #expect(try await device.api(.POST, "/api/v1/samples", token: token, json: body).status == .created)
            #expect(!(try await ana.get("/settings/devices").contains("Never")))

            let id = try row.requireID().uuidString.lowercased()
            // Revoking asks first: the list's button only opens the question, whose button posts.
            let devices = try await ana.get("/settings/devices")
            #expect(devices.contains(#"<summary class="button button-secondary danger">Revoke</summary>"#))
            #expect(devices.contains("It can no longer send data") && devices.contains("Yes, revoke it"))
            let ben = app.browser()
            try await ben.signUp("ben")
            #expect(try await ben.post("/settings/devices/\(id)/revoke", [], csrfFrom: "/settings/devices").status == .notFound)
            #expect(try await ben.get("/settings/devices").contains("No devices yet"))
            #expect(try await ana.post("/settings/devices/\(id)/revoke", [], csrfFrom: "/settings/devices").status == .seeOther)
            #expect(try await device.api(.POST, "/api/v1/samples", token: token, json: body).status == .unauthorized)
        }
    }

    @Test func deviceNamesAreCheckedAndShownAsText() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let empty = try await ana.post("/settings/devices", [("name", "   ")], csrfFrom: "/settings/devices")
            #expect(empty.status == .unprocessableEntity && empty.contains("Name the device"))
            let long = try await ana.post("/settings/devices", [("name", String(repeating: "x", count: 61))], csrfFrom: "/settings/devices")
            #expect(long.status == .unprocessableEntity && long.contains("60 characters"))
            #expect(try await DeviceToken.query(on: app.db).count() == 0)
            _ = try await ana.deviceToken(named: "<script>alert(1)</script>")
            let list = try await ana.get("/settings/devices")
            #expect(!list.contains("<script>alert(1)") && list.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(try await app.browser().post("/settings/devices", [("name", "x")], csrfFrom: "/login").status == .seeOther)
            #expect(try await DeviceToken.query(on: app.db).count() == 1)
        }
    }

    @Test func jsonSamplesAreStoredOnceAndBadItemsRefusedOneByOne() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let base = app.clock.milliseconds - 3_600_000
            let body = """
                {"heart_rate": [{"t": \(base), "bpm": 72}, {"t": \(base + 1000), "bpm": 75}, {"t": \(base + 2000), "bpm": 300},
                                {"t": "2999-01-01T00:00:00Z", "bpm": 80}, {"t": "1999-12-31T23:59:59Z", "bpm": 80}, {"t": "soon", "bpm": 80}],
                 "rr": [{"t": \(base), "ms": 812}],
                 "locations": [{"t": \(base), "lat": 55.6761, "lon": 12.5683, "ele": 12.0, "accuracy": 5, "speed": 3.1},
                               {"t": \(base + 1000), "lat": 95, "lon": 12}],
                 "steps": [{"t": \(base), "count": 12}],
                 "motion": [{"t": \(base), "activity": "cycling", "confidence": 80}, {"t": \(base + 1), "activity": "flying"}]}
                """
            let first = try await ana.api(.POST, "/api/v1/samples", token: token, json: body)
            #expect(first.status == .created)
            let stored = try #require(first.json["stored"] as? [String: Int])
            #expect(stored == ["heart_rate": 2, "rr": 1, "locations": 1, "steps": 1, "motion": 1])
            let refused = try #require(first.json["refused"] as? [[String: Any]])
            let summary = refused.map { "\($0["series"]!)[\($0["index"]!)].\($0["field"]!): \($0["reason"]!)" }
            #expect(
                summary == [
                    "heart_rate[2].bpm: must be between 25 and 250",
                    "heart_rate[3].t: must not be more than 5 minutes in the future",
                    "heart_rate[4].t: must not be before the year 2000",
                    "heart_rate[5].t: must be an RFC 3339 time (2026-11-21T10:00:00Z) or epoch milliseconds",
                    "locations[1].lat: must be between -90 and 90",
                    "motion[1].activity: must be one of automotive, cycling, running, stationary, unknown, walking",
                ])
            // The device retries the same batch: nothing is stored twice.
            let again = try await ana.api(.POST, "/api/v1/samples", token: token, json: body)
            #expect(again.status == .ok)
            #expect(again.json["stored"] as? [String: Int] == ["heart_rate": 0, "rr": 0, "locations": 0, "steps": 0, "motion": 0])
            #expect((again.json["duplicates"] as? [String: Int])?["heart_rate"] == 2)
            #expect(try await count("heart_rate_samples", app.db) == 2)
            #expect(try await count("location_samples", app.db) == 1)
        }
    }

    @Test func withContinuousMonitoringOffOnlySamplesInsideAWorkoutAreKept() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken(allDay: false)
            let start = app.clock.milliseconds - 3_600_000
            func heartRate(_ seconds: Range<Int>) -> String {
                #"{"heart_rate": [\#(seconds.map { #"{"t": \#(start + Int64($0) * 1000), "bpm": 90}"# }.joined(separator: ","))], "steps": [{"t": \#(start - 5000), "count": 4}]}"#
            }
            // No workout yet: an all-day strap's samples are answered, counted and not kept.
            let before = try await ana.api(.POST, "/api/v1/samples", token: token, json: heartRate(-60..<0))
            #expect(before.status == .ok)
            #expect(before.json["skipped"] as? [String: Int] == ["heart_rate": 60, "rr": 0, "locations": 0, "steps": 1, "motion": 0])
            #expect((before.json["skipped_reason"] as? String)?.contains("Continuous monitoring is off") == true)
            #expect(try await count("heart_rate_samples", app.db) == 0)
            #expect(try await count("step_samples", app.db) == 0)

            // A recording workout keeps what falls after its start, and only that.
            let started = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"external_id": "w1", "sport": "running", "start": \#(start)}"#)
            #expect(started.status == .created)
            let during = try await ana.api(.POST, "/api/v1/samples", token: token, json: heartRate(-10..<120))
            #expect(during.status == .created)
            #expect((during.json["stored"] as? [String: Int])?["heart_rate"] == 120)
            #expect((during.json["skipped"] as? [String: Int])?["heart_rate"] == 10)
            #expect(during.json["skipped_reason"] != nil)
            #expect(try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"external_id": "w1", "end": \#(start + 120_000)}"#).status == .ok)

            // Finished: samples after its end are all-day samples again.
            let after = try await ana.api(.POST, "/api/v1/samples", token: token, json: heartRate(200..<230))
            #expect((after.json["skipped"] as? [String: Int])?["heart_rate"] == 30)
            #expect(try await count("heart_rate_samples", app.db) == 120)
            #expect(try await ana.get("/heart-rate").contains("Continuous heart rate is switched off"))

            // Switched on, the same all-day samples are kept.
            #expect(try await ana.saveProfile(["continuous_hr": "on"]).status == .seeOther)
            let on = try await ana.api(.POST, "/api/v1/samples", token: token, json: heartRate(200..<230))
            #expect(on.status == .created)
            #expect(on.json["skipped"] as? [String: Int] == ["heart_rate": 0, "rr": 0, "locations": 0, "steps": 0, "motion": 0])
            #expect(on.json["skipped_reason"] == nil)
            #expect(try await count("heart_rate_samples", app.db) == 150)
        }
    }

    @Test func malformedOrWronglyTypedBodiesStoreNothing() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let broken = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [{"t": 1, "bpm": 72}"#)
            #expect(broken.status == .badRequest && broken.contains("invalid_json"))
            let typed = try await ana.api(
                .POST, "/api/v1/samples", token: token,
                json: #"{"heart_rate": [{"t": "\#(Self.hourAgo(app))", "bpm": 70}, {"t": "\#(Self.hourAgo(app))", "bpm": "72"}]}"#)
            #expect(typed.status == .badRequest)
            #expect(typed.contains("heart_rate[1].bpm must be a number"), "\(typed.body)")
            let missing = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"rr": [{"t": "\#(Self.hourAgo(app))"}]}"#)
            #expect(missing.status == .badRequest && missing.contains("rr[0].ms is missing"))
            let many = "{\"steps\": [" + Array(repeating: #"{"t": 1, "count": 1}"#, count: 100_001).joined(separator: ",") + "]}"
            let tooMany = try await ana.api(.POST, "/api/v1/samples", token: token, json: many)
            #expect(tooMany.status == .payloadTooLarge && tooMany.contains("too_many_samples"))
            for table in ["heart_rate_samples", "rr_intervals", "step_samples"] {
                #expect(try await count(table, app.db) == 0)
            }
        }
    }

    @Test func tinyDevicesPostForms() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken(named: "Bike computer")
            let start = app.clock.milliseconds - 600_000
            let one = try await ana.api(.POST, "/api/v1/samples", token: token, form: "t=\(start)&bpm=72&lat=55.7&lon=12.5")
            #expect(one.status == .created)
            #expect(one.json["stored"] as? [String: Int] == ["heart_rate": 1, "rr": 0, "locations": 1, "steps": 0, "motion": 0])
            let series = try await ana.api(.POST, "/api/v1/samples", token: token, form: "start=\(start + 1000)&interval=2&bpm=73,74,75&steps=3,4,5")
            #expect(series.status == .created)
            #expect((series.json["stored"] as? [String: Int])?["heart_rate"] == 3)
            struct Row: Decodable { let t: Int64; let bpm: Int }
            let rows = try await app.db.sql.raw("SELECT t, bpm FROM heart_rate_samples ORDER BY t").all(decoding: Row.self)
            #expect(rows.map(\.t) == [start, start + 1000, start + 3000, start + 5000])
            #expect(rows.map(\.bpm) == [72, 73, 74, 75])
            let bad = try await ana.api(.POST, "/api/v1/samples", token: token, form: "t=\(start)&bpm=seventy")
            #expect(bad.status == .badRequest && bad.contains("must be a number"))
            // Well-formed, but not readings: several values need a series.
            let several = try await ana.api(.POST, "/api/v1/samples", token: token, form: "t=\(start)&bpm=70,71")
            #expect(several.status == .unprocessableEntity && several.contains("start"))
        }
    }

    @Test func blePayloadsGiveHeartRateAndRRIntervals() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let t = app.clock.milliseconds - 60_000
            // 78 bpm with four RR intervals; 72 bpm as base64 (flags 0x00); no contact; a stray byte; bad hex.
            let base64 = Data([0x00, 0x48]).base64EncodedString()
            let body = """
                {"notifications": [{"t": \(t), "hex": "16 4E 2E 03 30 03 1F 03 20 03"}, {"t": \(t + 1000), "base64": "\(base64)"},
                                   {"t": \(t + 2000), "hex": "0450"}, {"t": \(t + 3000), "hex": "10480004 33"}, {"t": \(t + 4000), "hex": "zz"}]}
                """
            let answer = try await ana.api(.POST, "/api/v1/heart-rate/ble", token: token, json: body)
            #expect(answer.status == .created)
            #expect(answer.json["stored"] as? [String: Int] == ["heart_rate": 2, "rr": 4, "locations": 0, "steps": 0, "motion": 0])
            let reasons = (answer.json["refused"] as? [[String: Any]] ?? []).map { "\($0["index"]!): \($0["reason"]!)" }
            #expect(
                reasons == [
                    "2: the strap reported no skin contact; the reading is not stored",
                    "3: has a stray byte: RR intervals come in pairs of bytes", "4: is not valid hex",
                ])
            struct Row: Decodable { let t: Int64; let ms: Double }
            let rr = try await app.db.sql.raw("SELECT t, ms FROM rr_intervals ORDER BY t").all(decoding: Row.self)
            // The last interval ends at the notification's time, the others before it.
            #expect(rr.last?.t == t)
            #expect(rr.map { ($0.ms * 1024 / 1000).rounded() } == [814, 816, 799, 800])
        }
    }

    @Test func heartRateMinutesAreRolledUpOncePerSample() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let minute = (Int64(app.clock.now.timeIntervalSince1970) / 60 - 30) * 60_000
            let samples = [(0, 60), (20_000, 90), (59_999, 75), (60_000, 100)].map { #"{"t": \#(minute + Int64($0.0)), "bpm": \#($0.1)}"# }
            let body = #"{"heart_rate": [\#(samples.joined(separator: ","))]}"#
            try await ana.api(.POST, "/api/v1/samples", token: token, json: body)
            try await ana.api(.POST, "/api/v1/samples", token: token, json: body)
            struct Row: Decodable { let minute: Int64; let min_bpm: Int; let max_bpm: Int; let sum_bpm: Int; let samples: Int }
            let rows = try await app.db.sql.raw("SELECT minute, min_bpm, max_bpm, sum_bpm, samples FROM heart_rate_minutes ORDER BY minute")
                .all(decoding: Row.self)
            #expect(rows.count == 2)
            #expect(rows.first.map { [$0.min_bpm, $0.max_bpm, $0.sum_bpm, $0.samples] } == [60, 90, 225, 3])
            #expect(rows.last.map { [$0.min_bpm, $0.max_bpm, $0.sum_bpm, $0.samples] } == [100, 100, 100, 1])
            // A later batch into the same minute extends it.
            try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [{"t": \#(minute + 30_000), "bpm": 50}]}"#)
            let first = try await app.db.sql.raw("SELECT minute, min_bpm, max_bpm, sum_bpm, samples FROM heart_rate_minutes ORDER BY minute")
                .first(decoding: Row.self)
            #expect(first.map { [$0.min_bpm, $0.max_bpm, $0.sum_bpm, $0.samples] } == [50, 90, 275, 4])
            // A batch that is partly a retry: only its new sample counts, once.
            let mixed = #"{"heart_rate": [{"t": \#(minute), "bpm": 60}, {"t": \#(minute + 40_000), "bpm": 120}]}"#
            try await ana.api(.POST, "/api/v1/samples", token: token, json: mixed)
            try await ana.api(.POST, "/api/v1/samples", token: token, json: mixed)
            let after = try await app.db.sql.raw("SELECT minute, min_bpm, max_bpm, sum_bpm, samples FROM heart_rate_minutes ORDER BY minute")
                .all(decoding: Row.self)
            #expect(after.map { [$0.min_bpm, $0.max_bpm, $0.sum_bpm, $0.samples] } == [[50, 120, 395, 5], [100, 100, 100, 1]])
        }
    }

    @Test func acknowledgedSamplesSurviveARestartAndRetriesStoreNothingTwice() async throws {
        try await withStore { store in
            var app = try await TestApp.start(store)
            let base = app.clock.milliseconds - 7_200_000
            func batch(_ n: Int) -> String {
                let items = (0..<500).map { #"{"t": \#(base + Int64(n * 500 + $0) * 1000), "bpm": \#(60 + $0 % 60)}"# }
                return #"{"heart_rate": [\#(items.joined(separator: ","))]}"#
            }
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: batch(0)).status == .created)
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: batch(1)).status == .created)
            // The server dies right after acknowledging; the device never heard and retries everything.
            await app.stop()
            app = try await TestApp.start(store)
            let device = app.browser()
            for n in 0..<3 {
                let answer = try await device.api(.POST, "/api/v1/samples", token: token, json: batch(n))
                #expect(answer.status == (n == 2 ? .created : .ok))
            }
            #expect(try await count("heart_rate_samples", app.db) == 1500)
            struct Total: Decodable { let n: Int }
            let rolled = try await app.db.sql.raw("SELECT CAST(SUM(samples) AS BIGINT) AS n FROM heart_rate_minutes").first(
                decoding: Total.self)
            #expect(rolled?.n == 1500)
            await app.stop()
        }
    }
}

/// What `schemathesis` found the API doing unlike its document (issue 42), each through the real app.
@Suite("Device API: as its document says")
struct APIConformanceTests {
    @Test func aRetriedWorkoutIsCheckedAsTheFirstRequestWas() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = app.clock.milliseconds - 3_600_000
            let good = #"{"external_id": "phone-7", "sport": "running", "start": \#(start), "end": \#(start + 1_800_000), "name": "Lunch run"}"#
            let made = try await ana.api(.POST, "/api/v1/workouts", token: token, json: good)
            #expect(made.status == .created)
            let id = try #require(made.workout["id"] as? String)

            // The same id with a bad field is refused as it would be the first time, not answered with the stored workout.
            let longName = String(repeating: "n", count: 150)
            for bad in [
                #"{"external_id": "phone-7", "sport": "running", "start": \#(start), "end": \#(start + 1_800_000), "name": "\#(longName)"}"#,
                #"{"external_id": "phone-7", "sport": "quidditch", "start": \#(start), "end": \#(start + 1_800_000)}"#,
                #"{"external_id": "phone-7", "sport": "Running", "start": \#(start)}"#,
                #"{"external_id": "phone-7", "sport": "running", "start": "1999-12-31T23:00:00Z"}"#,
            ] {
                let again = try await ana.api(.POST, "/api/v1/workouts", token: token, json: bad)
                #expect(again.status == .unprocessableEntity, "\(bad): \(again.body)")
                #expect(again.errorCode == "invalid_field")
            }
            let backwards = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: #"{"external_id": "phone-7", "sport": "running", "start": \#(start), "end": \#(start - 1000)}"#)
            #expect(backwards.status == .unprocessableEntity && backwards.errorMessage.contains("after start"))
            // A good request sent again is harmless: the same workout, unchanged.
            let retry = try await ana.api(.POST, "/api/v1/workouts", token: token, json: good)
            #expect(retry.status == .ok && retry.workout["id"] as? String == id && retry.workout["name"] as? String == "Lunch run")
            #expect(try await Workout.query(on: app.db).count() == 1)

            // Finishing a finished workout checks `end` too.
            let garbled = try await ana.api(.POST, "/api/v1/workouts/\(id)/finish", token: token, json: #"{"end": "AAA"}"#)
            #expect(garbled.status == .badRequest && garbled.errorCode == "invalid_json")
            #expect(try await ana.api(.POST, "/api/v1/workouts/\(id)/finish", token: token, json: #"{"end": 5}"#).status == .unprocessableEntity)
            let finishedAgain = try await ana.api(.POST, "/api/v1/workouts/\(id)/finish", token: token, json: "{}")
            #expect(finishedAgain.status == .ok && finishedAgain.workout["end"] as? String == made.workout["end"] as? String)

            // Without a sport a request can only finish: `{}` is malformed, an unknown id is not found.
            #expect(try await ana.api(.POST, "/api/v1/workouts", token: token, json: "{}").status == .badRequest)
            #expect(try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"external_id": "phone-7"}"#).status == .badRequest)
            let unknown = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"external_id": "phone-8", "end": \#(start)}"#)
            #expect(unknown.status == .notFound && unknown.errorCode == "not_found")
        }
    }

    @Test func nullIsRefusedWhereAFieldIsRead() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            for body in [
                #"{"sport": "running", "name": null}"#, #"{"sport": "running", "external_id": null}"#, #"{"sport": null}"#,
                #"{"sport": "running", "start": null}"#,
            ] {
                let answer = try await ana.api(.POST, "/api/v1/workouts", token: token, json: body)
                #expect(answer.status == .unprocessableEntity, "\(body): \(answer.body)")
                #expect(answer.errorCode == "invalid_field" && answer.errorMessage.contains("not null"))
            }
            #expect(try await Workout.query(on: app.db).count() == 0)
            let t = app.clock.milliseconds - 60_000
            let ble = try await ana.api(.POST, "/api/v1/heart-rate/ble", token: token, json: #"{"notifications": [{"t": \#(t), "hex": null}]}"#)
            #expect(ble.status == .unprocessableEntity && ble.errorMessage.contains("notifications[0].hex"))
            let sample = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [{"t": null, "bpm": 70}]}"#)
            #expect(sample.status == .unprocessableEntity && sample.errorCode == "invalid_field")
            // A key the API does not read may hold anything, null too.
            let extra = try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"sport": "running", "note": null}"#)
            #expect(extra.status == .created)
        }
    }

    @Test func queryParametersAreReadStrictly() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let made = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: #"{"sport": "walking", "start": \#(app.clock.milliseconds - 3_600_000), "end": \#(app.clock.milliseconds - 1_800_000)}"#)
            let id = try #require(made.workout["id"] as? String)
            for query in [
                "limit=abc", "limit=null", "limit=7.5", "limit=", "limit=0", "limit=201", "limit=-1", "limit=2&limit=2", "since=", "since=-5",
                "since=yesterday",
            ] {
                let answer = try await ana.api(.GET, "/api/v1/workouts?\(query)", token: token)
                #expect(answer.status == .badRequest, "\(query): \(answer.body)")
                #expect(answer.errorCode == "invalid_query")
            }
            let two = try await ana.api(.GET, "/api/v1/workouts?limit=2&since=0", token: token)
            #expect(two.status == .ok && (two.json["workouts"] as? [Any])?.count == 1)
            for query in ["keys=", "keys=time,,latlng", "keys=time,%20latlng", "resolution=low&resolution=low"] {
                #expect(try await ana.api(.GET, "/api/v1/workouts/\(id)/streams?\(query)", token: token).status == .badRequest, "\(query)")
            }
            #expect(try await ana.api(.GET, "/api/v1/workouts/\(id)/streams?keys=time,heartrate", token: token).status == .ok)
            // Every route under /api/, other features' too, refuses a parameter given twice.
            let twice = try await ana.api(.GET, "/api/v1/find?lat=55.68&lat=55.7&lon=12.57", token: token)
            #expect(twice.status == .badRequest && twice.errorMessage.contains("lat"))
            #expect(try await ana.api(.GET, "/api/v1/find?lat=55.68&lon=12.57&page=0", token: token).status == .unprocessableEntity)
        }
    }

    @Test func aWrongMethodIs405WithAllow() async throws {
        try await withApp { app in
            let device = app.browser()
            for (method, path, allow) in [
                (HTTPMethod.DELETE, "/api/v1/samples", "POST"), (.TRACE, "/api/v1/heart-rate/ble", "POST"), (.GET, "/api/v1/checkins", "POST"),
                (.PUT, "/api/v1/workouts", "GET, HEAD, POST"), (.PATCH, "/api/v1/workouts/\(UUID())", "DELETE, GET, HEAD"),
                (.GET, "/api/v1/workouts/\(UUID())/finish", "POST"), (.POST, "/api/v1/find", "GET, HEAD"), (.DELETE, "/api/v1/openapi.json", "GET, HEAD"),
            ] {
                let answer = try await device.api(method, path, token: nil)
                #expect(answer.status == .methodNotAllowed, "\(method) \(path): \(answer.status)")
                #expect(answer.headers.first(name: .allow) == allow, "\(method) \(path)")
                #expect(answer.errorCode == "method_not_allowed" && answer.errorMessage.contains(method.rawValue))
            }
            // A path the API does not have is still not found; pages keep their 404.
            let missing = try await device.api(.GET, "/api/v1/nothing-here", token: nil)
            #expect(missing.status == .notFound && missing.errorCode == "not_found")
            #expect(try await device.send(.OPTIONS, "/learn", headers: [:], body: nil).status == .notFound)
        }
    }

    @Test func aDeviceTokenFindsAroundItsPersonsHomeArea() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            try await User.query(on: app.db).filter(\.$username == "ana").set(\.$homeName, to: "Nørrebro").set(\.$homeLat, to: 55.69)
                .set(\.$homeLon, to: 12.55).update()
            app.wroteBehindTheAppsBack()
            let device = app.browser()
            let found = try await device.api(.GET, "/api/v1/find", token: token)
            #expect(found.status == .ok, "\(found.body)")
            #expect(found.json["latitude"] as? Double == 55.69 && found.json["longitude"] as? Double == 12.55)
            // As the cookie does; with neither there is no centre.
            #expect(try await ana.get("/api/v1/find").json["latitude"] as? Double == 55.69)
            #expect(try await device.api(.GET, "/api/v1/find", token: nil).status == .unprocessableEntity)
            let revoked = try await device.api(.GET, "/api/v1/find", token: token + "x")
            #expect(revoked.status == .unauthorized && revoked.errorCode == "unauthorized")
        }
    }

    @Test func anEmptyFormAndAnEmptyObjectAreAnsweredAlike() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let json = try await ana.api(.POST, "/api/v1/samples", token: token, json: "{}")
            #expect(json.status == .ok)
            for form in ["", "t=\(app.clock.milliseconds)", "bpm=&note=anything&note=twice"] {
                let answer = try await ana.api(.POST, "/api/v1/samples", token: token, form: form)
                #expect(answer.status == json.status, "\(form): \(answer.body)")
                #expect(NSDictionary(dictionary: answer.json).isEqual(to: json.json), "\(form): \(answer.body)")
            }
            for bad in ["bpm=1e2&t=1", "bpm=inf&t=1", "interval=0x10&start=1&bpm=70", "bpm=70&bpm=71&t=1"] {
                #expect(try await ana.api(.POST, "/api/v1/samples", token: token, form: bad).status == .badRequest, "\(bad)")
            }
        }
    }
}
