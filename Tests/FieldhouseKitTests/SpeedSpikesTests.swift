import FieldhouseKit
import Foundation
import Testing

/// GPS jumps: positions no person of the sport could reach are left out of distance, speeds and
/// splits, with a note, whatever the file or device they came from.
@Suite struct SpeedSpikesTests {
    /// Metres in one degree along the equator (6,371,008.8 m × π / 180).
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// A walk along the equator at 1.4 m/s, one point a second.
    static func walk(seconds: Int, from start: Int64 = 0) -> [TrackPoint] {
        (0...seconds).map { second in
            TrackPoint(time: start + Int64(second) * 1000, latitude: 0, longitude: Double(second) * 1.4 / metresPerDegree)
        }
    }

    /// Ten minutes of walking with one fix 175 m off to the north: over the 5-second windows speeds
    /// are measured on, a top speed of about 126 km/h.
    @Test func aWalksSpikeIsLeftOutAndItsTopSpeedIsAWalkers() throws {
        var points = Self.walk(seconds: 600)
        let straight = WorkoutSummary.compute(points: points, sport: .walking, profile: AthleteProfile())
        points[300].latitude = 175 / Self.metresPerDegree
        let raw = WorkoutSummary.cumulativeDistance(points).last!
        #expect(raw > straight.distance! + 340, "the jump there and back adds about 350 m")
        let summary = WorkoutSummary.compute(points: points, sport: .walking, profile: AthleteProfile())
        #expect(abs(summary.distance! - 600 * 1.4) < 0.01)
        #expect(abs(summary.maxSpeed! - 1.4) < 1e-6)
        #expect(summary.avgSpeed! <= summary.maxSpeed!)
        #expect(summary.notes.first == "One position or speed reading too fast for the sport (a GPS jump) was left out.")
        // The same jump in a ride is just as impossible; a 5 m wobble is GPS noise, not a jump.
        #expect(SpeedSpikes.clean(points, sport: .cycling).leftOut == 1)
        points[300].latitude = 5 / Self.metresPerDegree
        #expect(SpeedSpikes.clean(points, sport: .walking).leftOut == 0)
    }

    /// A real walk round Cerknica lake with minutes at 30–40 km/h in it (someone rode part of
    /// it) and a stale fix after a 44-second gap: 310 m out, then 184 m back in 2 s, a top speed of
    /// 126 km/h. The stale fix goes (8.4 m less than gpxpy's 4,580.1 m with it); the rest stays.
    @Test func aStaleFixAfterAGapInARealWalkIsLeftOut() throws {
        let lake = try ActivityFileTests.activity("gpx/cerknicko-jezero.gpx")
        let cleaned = SpeedSpikes.clean(lake.points, segmentStarts: lake.segmentStarts, sport: .walking)
        #expect(cleaned.leftOut == 1)
        #expect(cleaned.points.firstIndex { $0.coordinate == nil } == 236)
        #expect(cleaned.segmentStarts == lake.segmentStarts, "no new piece: the walk goes on from where it was")
        let summary = WorkoutSummary.compute(points: lake.points, segmentStarts: lake.segmentStarts, sport: .walking, profile: AthleteProfile())
        #expect(abs(summary.distance! - 4580.1) / 4580.1 < 0.005)
        #expect(summary.maxSpeed! <= Plausible.topSpeed(.walking))
        #expect(summary.avgSpeed! <= summary.maxSpeed!)
        #expect(summary.notes.first == "One position or speed reading too fast for the sport (a GPS jump) was left out.")
    }

    /// Two positions in Copenhagen and two in Madrid, ten seconds apart, as a phone once sent them:
    /// 2,072.7 km at 69,090 m/s before. Madrid is left out; what is left is a short, possible run.
    @Test func copenhagenToMadridInTenSecondsIsNotARun() {
        let points = [
            TrackPoint(time: 0, latitude: 55.6761, longitude: 12.5683),
            TrackPoint(time: 10_000, latitude: 55.6763, longitude: 12.5683),
            TrackPoint(time: 20_000, latitude: 40.4168, longitude: -3.7038),
            TrackPoint(time: 30_000, latitude: 40.4170, longitude: -3.7038),
        ]
        #expect(WorkoutSummary.cumulativeDistance(points).last! > 2_000_000)
        let summary = WorkoutSummary.compute(points: points, sport: .running, profile: AthleteProfile())
        let copenhagen = Geo.distance(points[0].coordinate!, points[1].coordinate!)
        #expect(abs(summary.distance! - copenhagen) < 0.001) // 22.2 m
        #expect(summary.notes.first == "2 positions or speed readings too fast for the sport (GPS jumps) were left out.")
        if let average = summary.avgSpeed, let top = summary.maxSpeed { #expect(average <= top) }
        #expect((summary.maxSpeed ?? 0) <= Plausible.topSpeed(.running))
    }

    /// A phone's first fix, 3 km away at a mast, then the real walk: the first fix goes, not the walk.
    @Test func aBadFirstFixIsLeftOutNotTheWalkAfterIt() {
        var points = Self.walk(seconds: 300)
        points[0].latitude = 3_000 / Self.metresPerDegree
        let cleaned = SpeedSpikes.clean(points, sport: .walking)
        #expect(cleaned.leftOut == 1)
        #expect(cleaned.points[0].coordinate == nil && cleaned.points[0].time == 0)
        #expect(cleaned.points.dropFirst().allSatisfy { $0.coordinate != nil })
        let summary = WorkoutSummary.compute(points: points, sport: .walking, profile: AthleteProfile())
        #expect(abs(summary.distance! - 299 * 1.4) < 0.01)
    }

    /// Where the recording stops and goes on far away (a train ride with the watch paused), both
    /// sides are kept and no distance is counted across; so is a jump the receiver stays at.
    @Test func aFarMoveAcrossAPauseOrToWhereTheReceiverStaysIsAGapNotAJump() {
        let before = Self.walk(seconds: 300)
        let after = Self.walk(seconds: 300, from: 1_200_000).map { point in
            var moved = point
            moved.longitude! += 20_000 / Self.metresPerDegree
            return moved
        }
        let summary = WorkoutSummary.compute(points: before + after, sport: .walking, profile: AthleteProfile())
        #expect(abs(summary.distance! - 600 * 1.4) < 0.01)
        #expect(summary.notes.allSatisfy { !$0.contains("GPS jump") })
        let cleaned = SpeedSpikes.clean(before + after, sport: .walking)
        #expect(cleaned.segmentStarts == [301])

        // No pause: 2 km away from one second to the next, and it stays there for five minutes.
        let stays = Self.walk(seconds: 300, from: 301_000).map { point in
            var moved = point
            moved.latitude = 2_000 / Self.metresPerDegree
            return moved
        }
        let jumped = SpeedSpikes.clean(before + stays, sport: .walking)
        #expect(jumped.leftOut == 0)
        #expect(jumped.segmentStarts == [301], "a new piece where it jumped")
        let total = WorkoutSummary.compute(points: before + stays, sport: .walking, profile: AthleteProfile()).distance!
        #expect(abs(total - 600 * 1.4) < 0.01)
    }

    /// A run with a three-minute gap in the middle (a tunnel) during which the runner went on: the
    /// distance across the gap counts, so the moving time must too, or the average beats the maximum.
    @Test func theAverageSpeedNeverExceedsTheMaximum() {
        let speed = 3.0
        var points = (0...300).map { TrackPoint(time: Int64($0) * 1000, latitude: 0, longitude: Double($0) * speed / Self.metresPerDegree) }
        points += (480...780).map { TrackPoint(time: Int64($0) * 1000, latitude: 0, longitude: Double($0) * speed / Self.metresPerDegree) }
        let summary = WorkoutSummary.compute(points: points, sport: .running, profile: AthleteProfile())
        #expect(abs(summary.distance! - 780 * speed) < 0.01)
        #expect(abs(summary.maxSpeed! - speed) < 1e-6)
        #expect(summary.avgSpeed! <= summary.maxSpeed!)
        #expect(abs(summary.moving - 780) < 1e-6)
    }

    /// A multisport recording: 12 m/s is a bike's speed, and a swimmer's jump.
    @Test func eachLegIsCheckedAgainstItsOwnSport() {
        let swim = (0...120).map { TrackPoint(time: Int64($0) * 1000, latitude: 0, longitude: Double($0) * 1.2 / Self.metresPerDegree) }
        let ride = (121...600).map { second in
            TrackPoint(time: Int64(second) * 1000, latitude: 0, longitude: (144 + Double(second - 120) * 12) / Self.metresPerDegree)
        }
        let legs = [ActivityLeg(sport: .swimming, start: 0), ActivityLeg(sport: .cycling, start: 121_000)]
        let summary = WorkoutSummary.compute(points: swim + ride, sport: .other, profile: AthleteProfile(), legs: legs)
        #expect(summary.notes.allSatisfy { !$0.contains("GPS jump") })
        #expect(abs(summary.distance! - (144 + 480 * 12)) < 0.01)
        #expect(abs(summary.maxSpeed! - 12) < 1e-6, "the ride's speed is a bike's, so it is the top speed")
        #expect(summary.avgSpeed! <= summary.maxSpeed!)
        // Fifty metres in a second: a jump in the swim leg, a possible move for a workout of any sport.
        var jumpy = swim + ride
        jumpy[60].latitude = 50 / Self.metresPerDegree
        #expect(SpeedSpikes.clean(jumpy, sport: .other, legs: legs).leftOut == 1)
        #expect(SpeedSpikes.clean(jumpy, sport: .other).leftOut == 0)
    }

    /// Linear in the points: a day of one-second points, half of them jumps, is cleaned at once.
    @Test func aLongJumpyRecordingIsCleanedInOnePass() {
        var points = Self.walk(seconds: 86_400)
        for index in stride(from: 1, to: points.count, by: 2) { points[index].latitude = Double(index % 7 + 1) * 0.01 }
        let cleaned = SpeedSpikes.clean(points, sport: .walking)
        #expect(cleaned.leftOut == 43_200)
    }
}
