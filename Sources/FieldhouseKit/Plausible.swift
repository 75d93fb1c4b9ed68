import Foundation

/// The physical limits of amateur sport, said once. Every reader (samples API, GPX, TCX, FIT, BLE,
/// EXIF) and every form refuses or drops values outside them, so nothing out of range is stored and
/// no page, chart or formatter ever meets a value it cannot draw.
public enum Plausible {
    /// Beats per minute: below 25 or above 250 is a strap slipping, not a heart.
    public static let heartRate: ClosedRange<Double> = 25...250
    /// Metres above sea level: the Dead Sea shore to above Everest's summit.
    public static let elevation: ClosedRange<Double> = -500...9_000
    /// Metres per second: 150 km/h, faster than any human sport but downhill skiing's records.
    public static let speed: ClosedRange<Double> = 0...(150 / 3.6)
    /// Kilocalories in one workout.
    public static let caloriesPerWorkout: ClosedRange<Double> = 0...20_000
    /// Metres in one workout.
    public static let distancePerWorkout: ClosedRange<Double> = 0...1_000_000
    /// Seconds in one workout: a week, long enough for any ultra event.
    public static let durationPerWorkout: ClosedRange<Double> = 0...(7 * 86_400)
    /// Steps, revolutions or strokes per minute.
    public static let cadence: ClosedRange<Double> = 0...300
    /// Milliseconds between heartbeats (25–250 bpm, with room for a skipped beat).
    public static let rrInterval: ClosedRange<Double> = 200...3_000
    /// Steps counted in one sample.
    public static let stepsPerSample: ClosedRange<Double> = 0...100_000
    /// Kilojoules of work or watts of power on a bike.
    public static let power: ClosedRange<Double> = 0...3_000
    /// Temperature in °C where people exercise.
    public static let temperature: ClosedRange<Double> = -60...60
    /// Metres of horizontal accuracy a location reading may claim and still be drawn.
    public static let accuracy: ClosedRange<Double> = 0...10_000

    /// The earliest time a recording may carry: 2000-01-01T00:00:00Z. Older times come from clocks
    /// that were never set (FIT's epoch is 1989, GPS resets give 1980 or 1901).
    public static let earliestMilliseconds: Int64 = 946_684_800_000
    /// Clock drift a device may have: five minutes ahead.
    public static let futureAllowanceMilliseconds: Int64 = 300_000
    /// The latest: five minutes from now, for device clocks a little ahead.
    public static func latestMilliseconds(now: Date) -> Int64 {
        Int64(now.timeIntervalSince1970 * 1000) + futureAllowanceMilliseconds
    }

    /// Whether a sample or workout time lies between 2000 and five minutes from now.
    public static func isTime(_ milliseconds: Int64, now: Date) -> Bool {
        milliseconds >= earliestMilliseconds && milliseconds <= latestMilliseconds(now: now)
    }

    /// `value` when it is finite and inside `range`, else nil: how readers drop one bad reading and
    /// keep the rest of a file.
    public static func keep(_ value: Double?, in range: ClosedRange<Double>) -> Double? {
        guard let value, value.isFinite, range.contains(value) else { return nil }
        return value
    }

    /// The fastest average speed (m/s) a whole session of a sport can have, a little above the
    /// world's records: a plan or a typed workout faster than this has a typing mistake in it.
    public static func topAverageSpeed(_ sport: WorkoutSport) -> Double {
        let kmh: Double =
            switch sport {
            case .running: 25 // elite 10 km pace is about 23 km/h
            case .walking: 16 // race walkers, about 15 km/h
            case .hiking: 12
            case .swimming: 10 // 50 m sprint records are under 9 km/h
            case .rowing: 25 // an eight, about 22 km/h
            case .cycling: 70 // the hour record is under 57 km/h; downhill rides average more
            case .skating: 60
            case .skiing, .other: 150
            case .strength, .yoga, .soccer, .basketball, .volleyball, .tennis: 40
            }
        return kmh / 3.6
    }

    /// The fastest a person doing a sport moves at any moment (m/s), with room to spare: a GPS
    /// position that would need more is a jump of the receiver, not of the person (`SpeedSpikes`).
    /// A walk or a hike may hold a short run; team sports are sprints on foot.
    public static func topSpeed(_ sport: WorkoutSport) -> Double {
        let kmh: Double =
            switch sport {
            case .running: 45 // the fastest 100 m ever run peaks at 44.7 km/h
            case .walking, .hiking: 30
            case .swimming: 15 // open water with a current; pool sprints stay under 9 km/h
            case .rowing: 40
            case .cycling: 130 // fast descents pass 100 km/h
            case .skating: 80
            case .skiing, .other: 150
            case .strength, .yoga, .soccer, .basketball, .volleyball, .tennis: 45
            }
        return min(kmh / 3.6, speed.upperBound)
    }
}
