import FieldhouseKit
import Foundation
import Testing

/// Speeds measured between a phone's positions when it sent none, as a browser's often come.
@Suite("Position speeds")
struct PositionSpeedsTests {
    typealias Fix = PositionSpeeds.Fix
    let start: Int64 = 1_800_000_000_000

    /// Due north from Copenhagen at `speed` m/s, a fix every `every` ms.
    func ride(_ count: Int, speed: Double, every: Int64 = 1000, from: Int64? = nil, accuracy: Double? = 5) -> [Fix] {
        let first = from ?? start
        return (0..<count).map { i in
            let t = first + Int64(i) * every
            let north = Double(t - start) / 1000 * speed
            return Fix(time: t, place: Coordinate(latitude: 55.676 + north / 111_195, longitude: 12.569), accuracy: accuracy)
        }
    }

    @Test func aBrowsersBatchAtOneFixASecondGetsItsSpeeds() {
        // Five fixes, a second apart, as the recorder sends them every 5 s: measured over 2 s each.
        let speeds = PositionSpeeds.speeds(ride(5, speed: 5))
        #expect(speeds.map(\.time) == [start + 2000, start + 4000])
        #expect(speeds.allSatisfy { abs($0.metresPerSecond - 5) < 0.05 }, "\(speeds)")
        // In any order, and with a fix sent twice.
        let shuffled = ride(5, speed: 5).reversed() + ride(1, speed: 5, from: start + 2000)
        #expect(PositionSpeeds.speeds(Array(shuffled)).map(\.time) == [start + 2000, start + 4000])
        // A fix every 10 s, as a phone saving its battery sends them: each one measured.
        #expect(PositionSpeeds.speeds(ride(6, speed: 5, every: 10_000)).count == 5)
    }

    @Test func aDevicesOwnSpeedWinsAndStillPlacesTheNextFix() {
        var fixes = ride(5, speed: 5, every: 2000)
        fixes[1].speed = 4.2
        let speeds = PositionSpeeds.speeds(fixes)
        #expect(speeds.map(\.time) == fixes.map(\.time).dropFirst().map { $0 })
        #expect(speeds[0].metresPerSecond == 4.2)
        #expect(abs(speeds[1].metresPerSecond - 5) < 0.05, "measured from the fix that had a speed of its own")
    }

    @Test func poorFixesGapsAndJumpsMeasureNothing() {
        // A fix 300 m off with a 120 m accuracy: neither measured nor measured from.
        var fixes = ride(4, speed: 5, every: 2000)
        fixes[2].place.longitude += 0.005
        fixes[2].accuracy = 120
        let around = PositionSpeeds.speeds(fixes)
        #expect(around.map(\.time) == [start + 2000, start + 6000])
        #expect(around.allSatisfy { abs($0.metresPerSecond - 5) < 0.05 })
        // Two minutes without a fix: the straight line says nothing; the ride goes on after it.
        let gap = ride(2, speed: 5, every: 2000) + ride(3, speed: 5, every: 2000, from: start + 122_000)
        #expect(PositionSpeeds.speeds(gap).map(\.time) == [start + 2000, start + 124_000, start + 126_000])
        // A receiver that jumped a kilometre for one fix: no speed for it, and the next is measured
        // from the one before the jump.
        var jump = ride(4, speed: 5, every: 2000)
        jump[2].place.latitude += 0.01
        let jumped = PositionSpeeds.speeds(jump)
        #expect(jumped.map(\.time) == [start + 2000, start + 6000])
        #expect(jumped.allSatisfy { abs($0.metresPerSecond - 5) < 0.05 })
    }

    @Test func speedsReadAsCyclingWalkingOrAVehicle() {
        let rules = CyclingEligibility.Rules()
        func readings(_ speed: Double) -> [CyclingEligibility.Reading] {
            PositionSpeeds.speeds(ride(9, speed: speed)).compactMap {
                CyclingEligibility.Event.speed(time: $0.time, metresPerSecond: $0.metresPerSecond, rules: rules)?.reading
            }
        }
        #expect(readings(5) == [.cycling, .cycling, .cycling, .cycling], "18 km/h")
        #expect(readings(1.4) == [], "a walk says nothing")
        #expect(readings(20) == [.vehicle, .vehicle, .vehicle, .vehicle], "72 km/h")
    }

    @Test func hostileNumbersNeitherTrapNorSlowDown() {
        let extremes: [Int64] = [.min, .max, 0, -1, .max - 1, .min + 1]
        let coordinates = [
            Coordinate(latitude: .nan, longitude: 0), Coordinate(latitude: .infinity, longitude: 1), Coordinate(latitude: 90, longitude: 180),
            Coordinate(latitude: -90, longitude: -180), Coordinate(latitude: 1e308, longitude: -1e308),
        ]
        var fixes: [Fix] = []
        for (i, t) in extremes.enumerated() {
            for (j, place) in coordinates.enumerated() {
                fixes.append(
                    Fix(time: t, place: place, accuracy: [nil, .nan, -1, .infinity, 1e308][(i + j) % 5], speed: [nil, .nan, -.infinity, 3, 1e308][j % 5]))
            }
        }
        let speeds = PositionSpeeds.speeds(fixes + fixes.reversed())
        #expect(speeds.allSatisfy { $0.metresPerSecond.isFinite && $0.metresPerSecond >= 0 })
        // 200,000 fixes, all at one instant or each a step apart: one pass each.
        let crowd = [Fix](repeating: Fix(time: start, place: Coordinate(latitude: 1, longitude: 1)), count: 200_000)
        #expect(PositionSpeeds.speeds(crowd).isEmpty)
        #expect(PositionSpeeds.speeds(ride(200_000, speed: 5, every: 2000)).count == 199_999)
    }
}
