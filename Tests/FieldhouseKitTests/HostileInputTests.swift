import FieldhouseKit
import Foundation
import Testing

/// Files and values no honest device writes, each of which used to trap (and so stop the whole
/// server), loop or take quadratic time. Every one is read or refused with a reason.
@Suite struct HostileInputTests {
    /// An hour ago, in FIT seconds (from 1989-12-31).
    static let fitNow = UInt64(Date().timeIntervalSince1970) - UInt64(FITReader.epoch) - 3600

    static func activity(_ bytes: [UInt8]) throws -> ActivityRecording {
        guard case .activity(let recording) = try ActivityFile.read(bytes) else {
            Issue.record("not read as an activity")
            throw CancellationError()
        }
        return recording
    }

    static func gpx(_ points: String) -> [UInt8] {
        Array(
            #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>T</name><trkseg>\#(points)</trkseg></trk></gpx>"#
                .utf8)
    }

    @Test func timesWithAnyPrecisionRead() {
        #expect(SampleTime.milliseconds(rfc3339: "2026-11-22T10:00:01.123456Z") == SampleTime.milliseconds(rfc3339: "2026-11-22T10:00:01.123Z"))
        for digits in 1...12 {
            let fraction = String("987654321012".prefix(digits))
            let expected = Int64(String((fraction + "00").prefix(3)))!
            let base = SampleTime.milliseconds(rfc3339: "2026-11-22T10:00:01Z")!
            #expect(SampleTime.milliseconds(rfc3339: "2026-11-22T10:00:01.\(fraction)+00:00") == base + expected, "\(digits) digits")
        }
        #expect(SampleTime.milliseconds(rfc3339: "2026-11-22T10:00:01.Z") == nil)
    }

    @Test func fitTimesWiderThanThirtyTwoBitsAreNotTimes() throws {
        var fit = FITBuilder.activity()
        fit.define(local: 1, global: 20, fields: [(253, 8, .uint64), (3, 1, .uint8)])
        fit.message(local: 1, FITBuilder.le(0x0100_0000_0000_0000, 8) + [120])
        fit.message(local: 1, FITBuilder.le(UInt64(Int64.max) - 5, 8) + [120])
        fit.message(local: 1, FITBuilder.le(Self.fitNow, 8) + [121])
        // A lap starting at a time no clock shows.
        fit.define(local: 2, global: 19, fields: [(2, 8, .uint64)])
        fit.message(local: 2, FITBuilder.le(0x7FFF_FFFF_FFFF_FFF0, 8))
        let recording = try FITReader.read(fit.file)
        #expect(recording.points.map(\.heartRate) == [121])
        #expect(recording.laps.first?.start == nil)
    }

    @Test func compressedTimestampsWrapLikeTheDevicesClock() throws {
        var fit = FITBuilder.activity()
        fit.define(local: 1, global: 20, fields: [(253, 4, .uint32), (3, 1, .uint8)])
        fit.define(local: 2, global: 20, fields: [(3, 1, .uint8)])
        fit.message(local: 1, FITBuilder.le(0xFFFF_FFFE, 4) + [100])
        fit.compressed(local: 2, offset: 0, [101])
        let recording = try FITReader.read(fit.file)
        // The second reading wrapped to the start of FIT time, 1989: the importer refuses such times with a reason.
        #expect(recording.points.count == 2)
        #expect(recording.start == FITReader.epoch * 1000, "0xFFFFFFE0 + 0x20 wraps to 0")
    }

    @Test func totalsAndReadingsNoBodyProducesAreLeftOut() throws {
        var fit = FITBuilder.activity()
        // Altitude is a uint16 in fifths of a metre above −500 m: 65,534 is 12,607 m, above any mountain.
        fit.define(local: 1, global: 20, fields: [(253, 4, .uint32), (3, 1, .uint8), (4, 8, .uint64), (2, 2, .uint16)])
        fit.message(local: 1, FITBuilder.le(Self.fitNow, 4) + [130] + FITBuilder.le(0x7FFF_FFFF_FFFF_FFFE, 8) + FITBuilder.le(65_534, 2))
        fit.message(local: 1, FITBuilder.le(Self.fitNow + 1, 4) + [131] + FITBuilder.le(90, 8) + FITBuilder.le(2_600, 2))
        // Two sessions (a multisport file) whose calories would overflow when added up.
        fit.define(local: 3, global: 18, fields: [(11, 8, .uint64), (7, 4, .uint32)])
        fit.message(local: 3, FITBuilder.le(5_000_000_000_000_000_000, 8) + FITBuilder.le(600_000, 4))
        fit.message(local: 3, FITBuilder.le(5_000_000_000_000_000_000, 8) + FITBuilder.le(600_000, 4))
        let recording = try FITReader.read(fit.file)
        #expect(recording.points.map(\.cadence) == [nil, 90])
        #expect(recording.points.map(\.elevation) == [nil, 20])
        #expect(recording.totals.calories == nil)
        #expect(recording.totals.elapsed == 1_200)
        #expect(recording.notes.contains { $0.hasPrefix("4 readings outside what a body or a device can produce") })
    }

    @Test func aFieldOfNoBytesIsRefused() throws {
        var fit = FITBuilder.activity()
        fit.define(local: 1, global: 20, fields: [(253, 0, .uint32)])
        #expect(throws: ActivityFileError.corrupt("a definition has a field of size 0")) { try FITReader.read(fit.file) }
    }

    @Test func aFileOfAMillionAndOnePointsIsRefused() throws {
        var fit = FITBuilder.activity()
        fit.define(local: 1, global: 20, fields: [(253, 4, .uint32), (3, 1, .uint8)])
        fit.define(local: 2, global: 20, fields: [(3, 1, .uint8)])
        // One full record, then a million more of two bytes each: a compressed-timestamp header and a heart rate.
        let first = Self.fitNow - 1_100_000
        fit.message(local: 1, FITBuilder.le(first, 4) + [120])
        for index in 1...UInt64(ActivityFile.maxPoints) { fit.compressed(local: 2, offset: UInt8((first + index) & 0x1F), [120]) }
        #expect(throws: ActivityFileError.tooLarge("The file has more than a million points; split it or record less often.")) {
            try FITReader.read(fit.file)
        }
    }

    @Test func tcxLapTotalsBeyondAnyIntAreLeftOut() throws {
        let start = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
        let tcx =
            #"<TrainingCenterDatabase><Activities><Activity Sport="Running"><Lap StartTime="\#(start)"><TotalTimeSeconds>-1e308</TotalTimeSeconds><Calories>1e19</Calories><AverageHeartRateBpm><Value>1e19</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>1e300</Value></MaximumHeartRateBpm><Track><Trackpoint><Time>\#(start)</Time><AltitudeMeters>1e16</AltitudeMeters><DistanceMeters>1e300</DistanceMeters></Trackpoint></Track></Lap><Lap StartTime="\#(start)"><TotalTimeSeconds>1e308</TotalTimeSeconds><Calories>9e18</Calories><AverageHeartRateBpm><Value>150</Value></AverageHeartRateBpm></Lap></Activity></Activities></TrainingCenterDatabase>"#
        let recording = try TCXReader.read(Array(tcx.utf8))
        #expect(recording.totals.calories == nil && recording.totals.averageHeartRate == nil && recording.totals.elapsed == nil)
        #expect(recording.points.first?.elevation == nil && recording.points.first?.distance == nil)
    }

    @Test func deepNestingIsRefusedAtOnce() throws {
        let deep =
            "<TrainingCenterDatabase><Activities><Activity Sport=\"Running\"/>" + String(repeating: "<x>", count: 200_000)
            + String(repeating: "</x>", count: 200_000) + "</Activities></TrainingCenterDatabase>"
        let started = ContinuousClock.now
        #expect(throws: ActivityFileError.self) { try ActivityFile.read(Array(deep.utf8)) }
        #expect(ContinuousClock.now - started < .seconds(10), "nesting is checked as it is read, not searched per tag")
    }

    @Test func gpxPointsWithoutATimeAreLeftOutAndTheRestImported() throws {
        let t = { (s: Int) in ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_790_000_000 + Double(s))) }
        let recording = try Self.activity(
            Self.gpx(
                """
                <trkpt lat="55.6" lon="12.5"><time>\(t(0))</time></trkpt><trkpt lat="55.6" lon="12.5001"></trkpt>
                <trkpt lat="55.6" lon="12.5002"><time>\(t(2))</time></trkpt><trkpt lat="55.6" lon="12.5003"><time>\(t(3))</time></trkpt>
                """))
        #expect(recording.points.count == 3)
        #expect(recording.notes == ["1 of the 4 track points had no time and were left out."])
    }

    @Test func gpxElevationsAndSpeedsNoWorldHasAreLeftOut() throws {
        var points = ""
        for second in 0..<5 {
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_790_000_000 + Double(second)))
            points +=
                #"<trkpt lat="55.6" lon="\#(12.5 + Double(second) * 0.0001)"><ele>1e16</ele><time>\#(time)</time><extensions><speed>1e15</speed></extensions></trkpt>"#
        }
        let recording = try Self.activity(Self.gpx(points))
        #expect(!recording.points.isEmpty && recording.points.allSatisfy { $0.elevation == nil && $0.speed == nil })
        #expect(recording.notes.count == 1)
    }

    @Test func aGzipInsideAGzipIsRefused() throws {
        let twice = try ActivityFileTests.gzip(try ActivityFileTests.gzip(try ActivityFileTests.bytes("gpx/route.gpx")))
        #expect(throws: ActivityFileError.corrupt("the file is compressed twice (a .gz inside a .gz); compress it once")) {
            try ActivityFile.read(twice)
        }
        // One level is read; its expansion is held to the limit given.
        let once = try ActivityFileTests.gzip(try ActivityFileTests.bytes("gpx/route.gpx"))
        #expect(throws: ActivityFileError.self) { try ActivityFile.read(once, expandedLimit: 1_000) }
        if case .route? = try? ActivityFile.read(once, expandedLimit: 100_000) {} else { Issue.record("one level of gzip is read") }
    }

    @Test func hexOfAnyLengthIsReadInLinearTime() {
        let hex = String(repeating: "0a", count: 1_000_000)
        let started = ContinuousClock.now
        #expect(HeartRateMeasurement.bytes(hex: hex)?.count == 1_000_000)
        #expect(ContinuousClock.now - started < .seconds(10), "taking digits off the front of an array was quadratic: hours for this")
    }

    @Test func photoTimesFromClocksNeverSetAreNotTimes() {
        let utc = TimeZone(identifier: "UTC")!
        #expect(CaptureTime(year: 2099, month: 1, day: 1, hour: 0, minute: 0, second: 0).instant(fallbackZone: utc) == nil)
        #expect(CaptureTime(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0).instant(fallbackZone: utc) == nil)
        #expect(CaptureTime(year: 2024, month: 6, day: 1, hour: 12, minute: 0, second: 0).instant(fallbackZone: utc) != nil)
    }

    @Test func aMessageOfNoBytesIsRefused() throws {
        var fit = FITBuilder.activity()
        fit.define(local: 1, global: 19, fields: [])
        for _ in 0..<1_000 { fit.message(local: 1, []) }
        #expect(throws: ActivityFileError.corrupt("a data message has no content")) { try FITReader.read(fit.file) }
    }

    @Test func pointsFromAClockThatResetAreLeftOutWithANote() throws {
        let t = { (date: Date) in ISO8601DateFormatter().string(from: date) }
        let now = Date().addingTimeInterval(-3600)
        let recording = try Self.activity(
            Self.gpx(
                """
                <trkpt lat="55.6" lon="12.5"><time>1980-01-06T00:00:00Z</time></trkpt>
                <trkpt lat="55.6" lon="12.5001"><time>\(t(now))</time></trkpt><trkpt lat="55.6" lon="12.5002"><time>\(t(now.addingTimeInterval(1)))</time></trkpt>
                """))
        #expect(recording.points.count == 2)
        #expect(recording.notes == ["One point with a time before 2000 or in the future (a device clock that reset) was left out."])
        // A file whose every time is impossible is kept whole, for the importer to name the times it refuses.
        let allOld = try Self.activity(
            Self.gpx(
                #"<trkpt lat="55.6" lon="12.5"><time>1980-01-06T00:00:00Z</time></trkpt><trkpt lat="55.6" lon="12.5001"><time>1980-01-06T00:00:01Z</time></trkpt>"#
            ))
        #expect(allOld.points.count == 2)
    }
}
