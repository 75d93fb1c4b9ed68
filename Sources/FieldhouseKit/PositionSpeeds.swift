import Foundation

/// How fast a phone moved at each of its positions: the device's own speed where it sent one, else
/// the distance from the position before over the time between them. A browser's `coords.speed` is
/// often null, and a ride recorded there must still read as cycling (`CyclingEligibility.Event.speed`).
///
/// Positions are taken in time order. One less accurate than `WorkoutSummary.worstAccuracy`, or off
/// the globe, neither gets a speed nor serves as the one before. Two positions closer in time than
/// `shortestStep` are measured from the earlier one on (a phone's fix a few metres off over a second
/// would be a sprint); two further apart than `WorkoutSummary.pauseGap` measure nothing (a straight
/// line over a minute says little about how fast the way was). A move faster than `Plausible.speed`
/// allows is a GPS jump: it gives no speed, and the next position is measured from the one before it.
/// Linear in the positions (after sorting them); no value, however hostile, traps.
public enum PositionSpeeds {
    public struct Fix: Sendable, Equatable {
        /// Milliseconds since 1970.
        public var time: Int64
        public var place: Coordinate
        /// Horizontal accuracy in metres, when the device gave it.
        public var accuracy: Double?
        /// The device's own speed in m/s, when it gave one.
        public var speed: Double?

        public init(time: Int64, place: Coordinate, accuracy: Double? = nil, speed: Double? = nil) {
            self.time = time
            self.place = place
            self.accuracy = accuracy
            self.speed = speed
        }
    }

    public struct Speed: Sendable, Equatable {
        public var time: Int64
        public var metresPerSecond: Double

        public init(time: Int64, metresPerSecond: Double) {
            self.time = time
            self.metresPerSecond = metresPerSecond
        }
    }

    /// Positions closer in time than this (ms) are measured over a longer step. A browser sends a
    /// batch every 5 s with a fix a second, so a step longer than 4 s would never fit in one batch.
    public static let shortestStep: Int64 = 2_000

    /// The speed at each position that has one, in time order: the device's, or one measured from the
    /// position before (see the type's rules).
    public static func speeds(_ fixes: [Fix]) -> [Speed] {
        let ordered = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var result: [Speed] = []
        result.reserveCapacity(ordered.count)
        var before: Fix?
        for fix in ordered {
            if let given = fix.speed {
                if given.isFinite, given >= 0 { result.append(Speed(time: fix.time, metresPerSecond: given)) }
            }
            guard fix.place.isValid, (fix.accuracy ?? 0) <= WorkoutSummary.worstAccuracy else { continue }
            guard let from = before else {
                before = fix
                continue
            }
            let (step, overflow) = fix.time.subtractingReportingOverflow(from.time)
            guard !overflow, step >= shortestStep else { continue }
            guard step <= WorkoutSummary.pauseGap else {
                before = fix
                continue
            }
            let metresPerSecond = Geo.distance(from.place, fix.place) / (Double(step) / 1000)
            guard metresPerSecond.isFinite, metresPerSecond <= Plausible.speed.upperBound else { continue }
            if fix.speed == nil { result.append(Speed(time: fix.time, metresPerSecond: metresPerSecond)) }
            before = fix
        }
        return result
    }
}
