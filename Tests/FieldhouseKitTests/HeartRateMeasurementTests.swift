import FieldhouseKit
import Foundation
import Testing

@Suite struct HeartRateMeasurementTests {
    /// Builds a notification for every combination of the five flag bits that matter.
    @Test(arguments: 0..<32)
    func everyFlagCombinationReadsBack(flags: Int) throws {
        let wide = flags & 0x01 != 0, hasEnergy = flags & 0x08 != 0, hasRR = flags & 0x10 != 0
        var bytes: [UInt8] = [UInt8(flags)]
        bytes += wide ? [0x2C, 0x01] : [0x48] // 300 or 72 bpm
        if hasEnergy { bytes += [0x10, 0x27] } // 10,000 kJ
        if hasRR { bytes += [0x00, 0x04, 0x33, 0x03] } // 1024/1024 s and 819/1024 s
        let m = try HeartRateMeasurement.parse(bytes)
        #expect(m.bpm == (wide ? 300 : 72))
        #expect(m.energyExpended == (hasEnergy ? 10_000 : nil))
        #expect(m.rrIntervals == (hasRR ? [1000, 819 * 1000 / 1024.0] : []))
        switch (flags & 0x04 != 0, flags & 0x02 != 0) {
        case (false, _): #expect(m.contact == .unsupported)
        case (true, true): #expect(m.contact == .detected)
        case (true, false): #expect(m.contact == .notDetected)
        }
    }

    @Test func malformedLengthsAreRefused() throws {
        #expect(throws: HeartRateMeasurement.Failure.empty) { try HeartRateMeasurement.parse([]) }
        #expect(throws: HeartRateMeasurement.Failure.tooShort(expected: 2, actual: 1)) { try HeartRateMeasurement.parse([0x00]) }
        #expect(throws: HeartRateMeasurement.Failure.tooShort(expected: 3, actual: 2)) { try HeartRateMeasurement.parse([0x01, 0x48]) }
        #expect(throws: HeartRateMeasurement.Failure.tooShort(expected: 4, actual: 3)) { try HeartRateMeasurement.parse([0x08, 0x48, 0x01]) }
        #expect(throws: HeartRateMeasurement.Failure.strayByte) { try HeartRateMeasurement.parse([0x10, 0x48, 0x00, 0x04, 0x33]) }
        #expect(throws: HeartRateMeasurement.Failure.strayByte) { try HeartRateMeasurement.parse([0x00, 0x48, 0x99]) }
        // RR flag with no intervals is allowed (a beat may not have been seen yet).
        #expect(try HeartRateMeasurement.parse([0x10, 0x48]).rrIntervals == [])
    }

    @Test func severalIntervalsInOneNotification() throws {
        // A Polar H10 style notification: contact detected, 8-bit rate 78, four RR intervals.
        let bytes = try #require(HeartRateMeasurement.bytes(hex: "16 4E 2E 03 30 03 1F 03 20 03"))
        let m = try HeartRateMeasurement.parse(bytes)
        #expect(m.bpm == 78 && m.contact == .detected)
        #expect(m.rrIntervals.map { ($0 * 1024 / 1000).rounded() } == [814, 816, 799, 800])
        #expect(HeartRateMeasurement.bytes(hex: "1g") == nil && HeartRateMeasurement.bytes(hex: "123") == nil)
    }
}

@Suite struct SampleTimeTests {
    @Test func readsRFC3339LikeFoundationDoes() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for text in [
            "2026-11-21T10:00:00.000Z", "2000-02-29T23:59:59.999+14:00", "1999-12-31T00:00:00.500-09:30",
            "2024-06-01T12:34:56.125+02:00",
        ] {
            let expected = Int64((try #require(formatter.date(from: text))).timeIntervalSince1970 * 1000)
            #expect(SampleTime.milliseconds(rfc3339: text) == expected, "\(text)")
        }
        #expect(SampleTime.milliseconds(rfc3339: "2025-11-21T10:00:00Z") == 1_763_719_200_000)
        #expect(SampleTime.milliseconds(rfc3339: "2025-11-21 10:00:00.5Z") == 1_763_719_200_500)
    }

    @Test func refusesWhatIsNotADateTime() {
        for text in [
            "", "2026-11-21", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-21T25:00:00Z",
            "2026-11-21T10:00:00", "2026-11-21T10:00:00+0100", "2026-11-21T10:00:00.Z", "yesterday at noon!!",
        ] {
            #expect(SampleTime.milliseconds(rfc3339: text) == nil, "\(text)")
        }
    }
}

@Suite struct SeriesJSONTests {
    static func parse(_ text: String) throws -> [String: [SeriesJSON.Item]] { try SeriesJSON.parse(Array(text.utf8)) }

    @Test func readsSeriesOfFlatObjects() throws {
        let doc = try Self.parse(
            #" { "heart_rate" : [ {"t": 1763719200000, "bpm": 72.5}, {"t": "2025-11-21T10:00:00Z", "bpm": -1e2} ], "rr": [], "x": null } "#)
        let hr = try #require(doc["heart_rate"])
        #expect(hr.count == 2 && doc["rr"]?.isEmpty == true && doc["x"] == nil)
        #expect(hr[0].map(\.key) == ["t", "bpm"])
        #expect(hr[0][0].value == .number(1_763_719_200_000) && hr[0][1].value == .number(72.5))
        #expect(hr[1][0].value == .string("2025-11-21T10:00:00Z") && hr[1][1].value == .number(-100))
        let odd = try Self.parse(#"{"motion": [{"activity": "run\"ning\u0041\n", "ok": true, "c": null, "p": 0.1, "q": 12345678901234567890}]}"#)
        let item = try #require(odd["motion"]?.first)
        #expect(item[0].value == .string("run\"ningA\n") && item[1].value == .bool(true) && item[2].value == .null)
        #expect(item[3].value == .number(0.1) && item[4].value == .number(12_345_678_901_234_567_890))
    }

    @Test func refusesEverythingElseSayingWhere() {
        let cases: [(String, String)] = [
            (#"[1, 2]"#, "must be a JSON object"),
            (#"{"heart_rate": 5}"#, "heart_rate must be an array"),
            (#"{"heart_rate": [1]}"#, "heart_rate[0] must be an object"),
            (#"{"heart_rate": [{"t": [1]}]}"#, "heart_rate[0].t must be a number or a string"),
            (#"{"heart_rate": [{"t": 1},]}"#, "not valid JSON"),
            (#"{"heart_rate": [{"t": 1}"#, "ends too early"),
            (#"{"heart_rate": [{"t": "open}]}"#, "ends too early"),
            (#"{"heart_rate": []} trailing"#, "unexpected text"),
            (#"{"a": [{"t": 01x}]}"#, "not valid JSON"),
        ]
        for (text, message) in cases {
            do {
                _ = try Self.parse(text)
                Issue.record("accepted \(text)")
            } catch let failure as SeriesJSON.Failure {
                #expect(failure.message.contains(message), "\(text): \(failure.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
