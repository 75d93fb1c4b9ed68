import FieldhouseKit
import Foundation
import Testing

/// The fixture files and the values independent decoders read from them (Tests/Fixtures, README of
/// ../shared/fixtures).
@Suite struct ActivityFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    static func activity(_ path: String) throws -> ActivityRecording {
        guard case .activity(let recording) = try ActivityFile.read(bytes(path)) else {
            Issue.record("\(path) was not read as an activity")
            throw CancellationError()
        }
        return recording
    }

    static func iso(_ text: String) -> Int64 { SampleTime.milliseconds(rfc3339: text)! }

    @Test func fenix5RunMatchesEveryRecordOfTheReferenceDecoder() throws {
        let run = try Self.activity("fit/garmin-fenix-5-run.fit")
        #expect(run.format == .fit)
        #expect(run.sport == .running)
        #expect(run.points.count == 21)
        #expect(run.points.allSatisfy { $0.coordinate != nil && $0.heartRate != nil })
        #expect(run.start == Self.iso("2017-06-11T14:34:09Z"))
        #expect(run.end == Self.iso("2017-06-11T14:35:06Z"))
        let heartRates = run.points.compactMap(\.heartRate)
        #expect(Int((Double(heartRates.reduce(0, +)) / Double(heartRates.count)).rounded()) == 85)
        #expect(heartRates.max() == 112)
        #expect(abs(run.points.last!.distance! - 157.56) < 0.005)

        // Every record against fitdecode's CSV: heart rate, raw semicircles, distance, altitude.
        let csv = String(decoding: try Self.bytes("fit/garmin-fenix-5-run-records.csv"), as: UTF8.self)
        let rows = csv.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == run.points.count)
        for (row, point) in zip(rows, run.points) {
            #expect(point.heartRate == Int(row[1]))
            #expect(abs(point.distance! - Double(row[4])!) < 0.005)
            #expect(abs(point.latitude! - Double(row[5])! * 180 / 2_147_483_648) < 1e-9)
            #expect(abs(point.longitude! - Double(row[6])! * 180 / 2_147_483_648) < 1e-9)
            #expect(abs(point.elevation! - Double(row[7])!) < 0.01)
        }
    }

    @Test func edge500RideWithCompressedOrNotTimestamps() throws {
        let ride = try Self.activity("fit/garmin-edge-500-activity.fit")
        #expect(ride.sport == .cycling)
        #expect(ride.recordCount == 10686)
        // The reference CSV has 15 records repeating the time before them; a time is stored once.
        #expect(ride.points.count == 10686 - 15)
        #expect(ride.points.filter { $0.coordinate != nil }.count >= 10677 - 15)
        #expect(ride.points.allSatisfy { $0.heartRate != nil })
        #expect(ride.points.compactMap(\.heartRate).max() == 189)
        #expect(ride.start == Self.iso("2011-09-25T13:00:22Z"))
        #expect(ride.end == Self.iso("2011-09-25T16:31:53Z"))
        #expect(abs(ride.totals.distance! - 92622.34) < 0.005)
        let first = ride.points[0]
        #expect(first.heartRate == 161 && first.cadence == 71)
        #expect(abs(first.speed! - 5.888) < 0.0005)
        #expect(abs(first.latitude! - 521_521_093 * FITReader.degreesPerSemicircle) < 1e-9)
        let mean = Double(ride.points.compactMap(\.heartRate).reduce(0, +)) / Double(ride.points.count)
        #expect(abs(mean - 162.8) < 0.1)
    }

    @Test func fenix2RunAsFITAndAsGPXAreTheSameRun() throws {
        let fit = try Self.activity("fit/activity-small-fenix2-run.fit")
        #expect(fit.sport == .running)
        #expect(fit.points.filter { $0.coordinate != nil }.count == 2809)
        #expect(fit.points.filter { $0.heartRate != nil }.count == 2808)
        #expect(fit.points.compactMap(\.heartRate).max() == 178)
        #expect(fit.start == Self.iso("2015-08-15T14:45:08Z"))
        #expect(fit.end == Self.iso("2015-08-15T15:32:21Z"))
        #expect(abs(fit.points.last!.distance! - 9007.07) < 0.01)
        let heartRates = fit.points.compactMap(\.heartRate)
        #expect(abs(Double(heartRates.reduce(0, +)) / Double(heartRates.count) - 154.0) < 0.05)

        let gpx = try Self.activity("gpx/fenix2-run-with-hr.gpx")
        #expect(gpx.format == .gpx)
        #expect(gpx.sport == .running)
        #expect(gpx.name == "Evening run")
        #expect(gpx.points.count == 2809)
        #expect(gpx.points.allSatisfy { $0.cadence != nil })
        #expect(gpx.start == fit.start && gpx.end == fit.end)
        let distance = WorkoutSummary.cumulativeDistance(gpx.points).last!
        // GPS great-circle against the watch's own filtered distance: within 2 %.
        #expect(abs(distance - 9007.07) / 9007.07 < 0.02)
    }

    @Test func gpxWithSeveralTracksCountsNoDistanceBetweenThem() throws {
        let lake = try Self.activity("gpx/cerknicko-jezero.gpx")
        #expect(lake.points.count == 296)
        #expect(lake.start == Self.iso("2010-08-05T14:23:59Z"))
        #expect(lake.end == Self.iso("2010-08-05T16:23:49Z"))
        #expect(lake.points.allSatisfy { $0.elevation != nil })
        let distance = WorkoutSummary.cumulativeDistance(lake.points, segmentStarts: lake.segmentStarts).last!
        // gpxpy's 2D length is 4580.1 m on a flat-earth approximation; great circles agree within 0.5 %.
        #expect(abs(distance - 4580.1) / 4580.1 < 0.005)
    }

    /// A triathlon (swim, T1, bike, T2, run) as one recording with its legs, from a file that is also
    /// a chain: three FIT files of the strap's stored heart rate follow the activity.
    @Test func aMultisportFITIsOneRecordingWithItsLegs() throws {
        let race = try Self.activity("fit/sample_mulitple_header.fit")
        #expect(race.points.count == 1773)
        #expect(race.points.filter { $0.coordinate != nil }.count == 1462)
        #expect(race.start == Self.iso("2018-05-27T07:33:01Z"))
        #expect(race.end == Self.iso("2018-05-27T10:11:12Z"))
        #expect(race.sport == nil, "three sports: no one sport names it")
        #expect(race.legs.map(\.kind) == ["swimming", "transition", "cycling", "transition", "running"])
        let expected: [(Double, Double)] = [(1987.521, 1644.71), (170.269, 141.7), (4422.14, 40909.42), (60.724, 31.93), (2850.694, 9805.92)]
        for (leg, (seconds, metres)) in zip(race.legs, expected) {
            #expect(abs(leg.elapsed! - seconds) < 0.0005)
            #expect(abs(leg.distance! - metres) < 0.005)
        }
        #expect(race.legs.first?.start == Self.iso("2018-05-27T07:33:01Z"))
        #expect(race.legs.last?.start == Self.iso("2018-05-27T09:23:41Z"))
        #expect(abs(race.totals.distance! - 52533.68) < 0.005)
        #expect(abs(race.totals.elapsed! - 9491.348) < 0.0005)
        #expect(race.totals.calories == 1885)
        #expect(abs(race.deviceDistance! - 52533.68) < 0.005)
    }

    /// A Fenix 2 multisport file whose odometer starts again in each of its seven sessions: the
    /// distance is the sessions' sum, not the last session's odometer (28,927.39 m).
    @Test func aMultisportFITsDistanceIsItsLegsSum() throws {
        let day = try Self.activity("fit/activity-large-fenxi2-multisport.fit")
        #expect(day.legs.count == 7)
        #expect(day.legs.map(\.kind) == ["other", "transition", "running", "transition", "running", "transition", "cycling"])
        #expect(day.legs.filter(\.isTransition).map(\.sport) == [.other, .other, .other])
        #expect(abs(day.legs.compactMap(\.distance).reduce(0, +) - 69831.36) < 0.005)
        #expect(abs(day.legs.compactMap(\.elapsed).reduce(0, +) - 24617.46) < 0.0005)
        #expect(abs(day.deviceDistance! - 69831.36) < 0.005)
        #expect(abs(day.points.last!.distance! - 28927.39) < 0.005)
        #expect(day.totals.calories == 4079)
        #expect(day.sport == nil)
        // 24,239 records: six repeat the time before them, two go back a second.
        #expect(day.recordCount == 24239)
        #expect(day.points.count == 24231)
        #expect(day.notes.contains("2 points whose times go back (out of time order) were left out."))
        #expect(zip(day.points, day.points.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    /// An activity followed by a second FIT file (the watch's settings) is the activity, not "a settings file".
    @Test func aChainedFITIsReadWhole() throws {
        let run = try Self.activity("fit/activity-settings.fit")
        #expect(run.sport == .running)
        #expect(run.points.count == 14)
        #expect(run.points.allSatisfy { $0.coordinate != nil })
        #expect(run.start == Self.iso("2012-04-09T21:22:26Z"))
        #expect(run.end == Self.iso("2012-04-09T21:22:39Z"))
        #expect(abs(run.totals.distance! - 5.73) < 0.005)
        #expect(abs(run.totals.elapsed! - 13.749) < 0.0005)
        #expect(run.legs.isEmpty)
        // The same files the other way round: still an activity in the chain.
        let settings = try Self.bytes("fit/Settings.fit"), activity = try Self.bytes("fit/garmin-fenix-5-run.fit")
        guard case .activity(let after) = try ActivityFile.read(settings + activity) else {
            Issue.record("a settings file followed by an activity was not read as the activity"); return
        }
        #expect(after.points.count == 21)
        // A chain of settings alone is still refused for what it is.
        #expect(throws: ActivityFileError.notActivity("it is a FIT settings file")) { try ActivityFile.read(settings + settings) }
    }

    /// One point of a real track whose time was moved back an hour: left out with a note, rather than
    /// sorted into the first track's time, where it drew a leg there and back across the lake.
    @Test func aPointWhoseTimeGoesBackIsLeftOutWithANote() throws {
        let lake = try Self.activity("gpx/cerknicko-jezero-time-goes-back.gpx")
        #expect(lake.points.count == 295)
        #expect(!lake.points.contains { $0.time == Self.iso("2010-08-05T14:40:17Z") })
        #expect(lake.notes == ["One point whose time goes back (out of time order) was left out."])
        #expect(lake.start == Self.iso("2010-08-05T14:23:59Z"))
        let distance = WorkoutSummary.cumulativeDistance(lake.points, segmentStarts: lake.segmentStarts).last!
        // gpxpy: 4580.1 m without the point, 6169.9 m with it sorted into place.
        #expect(abs(distance - 4580.1) / 4580.1 < 0.005)
        #expect(lake.segmentStarts.count == 6, "seven tracks with points")

        // A time that jumps ahead of all that follow is the one left out; the rest stay in order.
        func gpx(_ seconds: [Int]) -> [UInt8] {
            let points = seconds.enumerated().map { index, second in
                let time = SampleTime.rfc3339(milliseconds: Self.iso("2010-08-05T15:00:00Z") + Int64(second) * 1000)
                return #"<trkpt lat="45.75" lon="\#(14.36 + Double(index) * 0.0001)"><time>\#(time)</time></trkpt>"#
            }
            return Array(#"<gpx version="1.1"><trk><trkseg>\#(points.joined())</trkseg></trk></gpx>"#.utf8)
        }
        guard case .activity(let ahead) = try ActivityFile.read(gpx([0, 1, 2, 59 * 60, 3, 4, 5])) else { Issue.record("not read"); return }
        #expect(ahead.points.map(\.time) == [0, 1, 2, 3, 4, 5].map { Self.iso("2010-08-05T15:00:00Z") + Int64($0) * 1000 })
        #expect(ahead.notes == ["One point whose time goes back (out of time order) was left out."])
        // A time written twice in a row is kept once, without a note.
        guard case .activity(let twice) = try ActivityFile.read(gpx([0, 1, 1, 2])) else { Issue.record("not read"); return }
        #expect(twice.points.count == 3 && twice.notes.isEmpty)
    }

    @Test func gpxWithAnEmptySegment() throws {
        let track = try Self.activity("gpx/track-with-empty-segment.gpx")
        #expect(track.points.count == 9)
        let distance = WorkoutSummary.cumulativeDistance(track.points, segmentStarts: track.segmentStarts).last!
        #expect(abs(distance - 85.9) < 0.5)
    }

    @Test func routesAndUntimedTracksAreRoutingTracks() throws {
        guard case .route(let route) = try ActivityFile.read(Self.bytes("gpx/route.gpx")) else {
            Issue.record("route.gpx was not a route"); return
        }
        #expect(route.points.count > 10)
        #expect(route.distance > 0)
        guard case .route(let untimed) = try ActivityFile.read(Self.bytes("gpx/cerknicko-without-times.gpx")) else {
            Issue.record("an untimed track became a workout"); return
        }
        #expect(untimed.points.count == 296)
        // Tracks that lie apart: gpxpy's 2D length of the tracks is 4580.1 m; joined by straight
        // lines across the gaps they would make 13,679.4 m.
        #expect(untimed.segmentStarts.count == 6, "seven tracks with points")
        #expect(abs(untimed.distance - 4580.1) / 4580.1 < 0.005)
    }

    @Test func tcxLapsAndTrackpoints() throws {
        let run = try Self.activity("tcx/test.tcx")
        #expect(run.format == .tcx)
        #expect(run.sport == .running)
        #expect(run.laps.count == 3)
        let lap = run.laps[0]
        #expect(lap.elapsed == 608.47)
        #expect(abs(lap.distance! - 1609.34) < 0.01)
        #expect(lap.calories == 94)
        #expect(lap.averageHeartRate == 139)
        #expect(lap.maximumHeartRate == 189)
        #expect(run.points.count == 384)
        #expect(run.points.contains { $0.coordinate != nil && $0.heartRate != nil })
        #expect(run.totals.maximumHeartRate == 189)
        #expect(run.totals.calories == 94 + 151 + 134)

        let noHR = try Self.activity("tcx/no_hr.tcx")
        #expect(!noHR.points.isEmpty && noHR.points.allSatisfy { $0.heartRate == nil })
        #expect(noHR.points.contains { $0.coordinate != nil })
    }

    @Test func brokenFilesAreRefusedWithTheirProblem() throws {
        #expect(throws: ActivityFileError.self) { try ActivityFile.read(Self.bytes("fit/activity-unexpected-eof.fit")) }
        do {
            _ = try ActivityFile.read(Self.bytes("fit/activity-unexpected-eof.fit"))
        } catch let error as ActivityFileError {
            guard case .truncated = error else { Issue.record("expected truncated, got \(error)"); return }
        }
        do {
            _ = try ActivityFile.read(Self.bytes("fit/activity-settings-corruptheader.fit"))
            Issue.record("a corrupt FIT file was read")
        } catch let error as ActivityFileError {
            guard case .corrupt = error else { Issue.record("expected corrupt, got \(error)"); return }
        }
        do {
            _ = try ActivityFile.read(Self.bytes("fit/Settings.fit"))
            Issue.record("a settings file was read as an activity")
        } catch let error as ActivityFileError {
            #expect(error.description.contains("not an activity file"))
        }
        // A GPX cut in the middle of a point.
        let gpx = try Self.bytes("gpx/fenix2-run-with-hr.gpx")
        do {
            _ = try ActivityFile.read(Array(gpx.prefix(gpx.count / 2)))
            Issue.record("half a GPX file was read")
        } catch let error as ActivityFileError {
            guard case .truncated = error else { Issue.record("expected truncated, got \(error)"); return }
        }
        #expect(throws: ActivityFileError.unknownType) { try ActivityFile.read(Array("hello, world".utf8)) }
        #expect(throws: ActivityFileError.unknownType) { try ActivityFile.read(Array("<html><body>no</body></html>".utf8)) }
    }

    @Test func aFlippedByteFailsTheFITChecksum() throws {
        var fit = try Self.bytes("fit/garmin-fenix-5-run.fit")
        fit[200] ^= 0x40
        #expect(throws: ActivityFileError.corrupt("the FIT file's checksum does not match its content")) { try ActivityFile.read(fit) }
    }

    @Test func gzipOfEachFormatReadsTheSame() throws {
        for path in ["fit/garmin-fenix-5-run.fit", "gpx/track-with-empty-segment.gpx", "tcx/test.tcx"] {
            let plain = try Self.bytes(path)
            let packed = try Self.gzip(plain)
            #expect(Gzip.isCompressed(packed))
            #expect(try Gzip.decompress(packed, limit: 10_000_000) == plain)
            guard case .activity(let a) = try ActivityFile.read(plain), case .activity(let b) = try ActivityFile.read(packed) else {
                Issue.record("\(path)"); continue
            }
            #expect(a.points == b.points)
        }
        let packed = try Self.gzip(try Self.bytes("tcx/test.tcx"))
        #expect(throws: ActivityFileError.self) { try ActivityFile.read(Array(packed.prefix(packed.count / 2))) }
        #expect(throws: ActivityFileError.self) { try Gzip.decompress(packed, limit: 1000) }
    }

    /// gzip as the command-line tool writes it, so the test does not depend on our own compressor.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(bytes)); try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    @Test func xmlEntitiesCDATAAndNoExternalEntities() throws {
        let gpx = """
            <?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <gpx version="1.1"><trk><name>Tom &amp; Jerry &#x263A; <![CDATA[<run>]]></name><trkseg>
            <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lat='1.001' lon='2'><time>2020-01-01T00:01:00Z</time><!-- a comment --></trkpt>
            </trkseg></trk></gpx>
            """
        guard case .activity(let run) = try ActivityFile.read(Array(gpx.utf8)) else { Issue.record("not read"); return }
        #expect(run.name == "Tom & Jerry ☺ <run>")
        #expect(run.points.count == 2)
        let external = #"<gpx><trk><name>&x;</name><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#
        #expect(throws: ActivityFileError.self) { try ActivityFile.read(Array(external.utf8)) }
        #expect(throws: ActivityFileError.self) { try ActivityFile.read(Array("<gpx><trk></gpx>".utf8)) }
    }

    /// Numbers are read from the file's bytes without making a String of each; every way a file may
    /// write one still reads as the standard library reads its text, to the last bit.
    @Test func numbersReadAsTheStandardLibraryReadsThem() throws {
        let latitudes = [
            "55.6761234", "-33.8688197", "0", "-0.0", "7", "45.", "+12.5", " 12.25 ", "1e1", "1.5E-3",
            "0.12345678901234567890", "12.345678901234567", "000012.500", "89.999999999999",
        ]
        let elevations = ["12.3", "-4.56", "1234.5678", "0.1", "2.2250738585072014", "99.99999999999999", "&#x31;2.5", "3<!-- c -->.5"]
        var points = ""
        for (index, latitude) in latitudes.enumerated() {
            let elevation = elevations[index % elevations.count]
            let time = SampleTime.rfc3339(milliseconds: 1_577_836_800_000 + Int64(index) * 1000)
            points += #"<trkpt lat="\#(latitude)" lon="12.5"><ele>\#(elevation)</ele><time>\#(time)</time></trkpt>"#
        }
        let gpx = #"<gpx version="1.1"><trk><trkseg>\#(points)</trkseg></trk></gpx>"#
        guard case .activity(let run) = try ActivityFile.read(Array(gpx.utf8), now: Date(timeIntervalSince1970: 1_800_000_000)) else {
            Issue.record("not read")
            return
        }
        #expect(run.points.count == latitudes.count)
        for (index, point) in run.points.enumerated() {
            let text = latitudes[index]
            let expected = Double(text) ?? Double(text.trimmingCharacters(in: .whitespaces))
            #expect(point.latitude.map(\.bitPattern) == expected.map(\.bitPattern), "latitude \(text)")
            let elevation = ["&#x31;2.5": "12.5", "3<!-- c -->.5": "3.5"][elevations[index % elevations.count]] ?? elevations[index % elevations.count]
            #expect(point.elevation.map(\.bitPattern) == Double(elevation).map(\.bitPattern), "elevation \(elevation)")
        }
    }
}
