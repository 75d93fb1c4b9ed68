import Foundation

/// One moment of a recorded activity, as a file gives it. Every value may be missing: a watch
/// indoors has no position, a phone without a strap no heart rate.
public struct TrackPoint: Equatable, Sendable {
    /// Epoch milliseconds.
    public var time: Int64
    public var latitude: Double?
    public var longitude: Double?
    /// Metres above sea level.
    public var elevation: Double?
    public var heartRate: Int?
    /// Steps or pedal strokes per minute, as the device reports them.
    public var cadence: Int?
    /// The device's own odometer in metres (wheel sensor or its filtered GPS), when it writes one.
    public var distance: Double?
    /// The device's speed in metres per second, when it writes one.
    public var speed: Double?
    /// Horizontal accuracy of the position in metres (phones report it; files do not).
    public var accuracy: Double?

    public init(
        time: Int64, latitude: Double? = nil, longitude: Double? = nil, elevation: Double? = nil,
        heartRate: Int? = nil, cadence: Int? = nil, distance: Double? = nil, speed: Double? = nil,
        accuracy: Double? = nil
    ) {
        self.accuracy = accuracy
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.heartRate = heartRate
        self.cadence = cadence
        self.distance = distance
        self.speed = speed
    }

    public var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

/// Totals a device wrote itself (FIT session, TCX laps). They are kept next to what Fieldhouse
/// computes, because a wheel sensor measures distance better than GPS.
extension TrackPoint {
    /// Drops each reading outside `Plausible` limits; returns how many were dropped.
    mutating func keepPlausible() -> Int {
        var dropped = 0
        func check(_ value: inout Double?, _ range: ClosedRange<Double>) {
            if value != nil && Plausible.keep(value, in: range) == nil { value = nil; dropped += 1 }
        }
        func check(_ value: inout Int?, _ range: ClosedRange<Double>) {
            if let whole = value, !range.contains(Double(whole)) { value = nil; dropped += 1 }
        }
        check(&elevation, Plausible.elevation)
        check(&distance, Plausible.distancePerWorkout)
        check(&speed, Plausible.speed)
        check(&accuracy, Plausible.accuracy)
        check(&heartRate, Plausible.heartRate)
        check(&cadence, Plausible.cadence)
        return dropped
    }
}

public struct DeviceTotals: Equatable, Sendable {
    /// Epoch milliseconds; laps have one.
    public var start: Int64?
    /// Seconds from start to end, pauses included.
    public var elapsed: Double?
    public var distance: Double?
    public var calories: Int?
    public var averageHeartRate: Int?
    public var maximumHeartRate: Int?

    public init(
        start: Int64? = nil, elapsed: Double? = nil, distance: Double? = nil, calories: Int? = nil,
        averageHeartRate: Int? = nil, maximumHeartRate: Int? = nil
    ) {
        self.start = start
        self.elapsed = elapsed
        self.distance = distance
        self.calories = calories
        self.averageHeartRate = averageHeartRate
        self.maximumHeartRate = maximumHeartRate
    }
}

extension DeviceTotals {
    /// Drops each total outside `Plausible` limits; returns how many were dropped.
    mutating func keepPlausible() -> Int {
        var dropped = 0
        if elapsed != nil && Plausible.keep(elapsed, in: Plausible.durationPerWorkout) == nil { elapsed = nil; dropped += 1 }
        if distance != nil && Plausible.keep(distance, in: Plausible.distancePerWorkout) == nil { distance = nil; dropped += 1 }
        if let value = calories, !Plausible.caloriesPerWorkout.contains(Double(value)) { calories = nil; dropped += 1 }
        if let value = averageHeartRate, !Plausible.heartRate.contains(Double(value)) { averageHeartRate = nil; dropped += 1 }
        if let value = maximumHeartRate, !Plausible.heartRate.contains(Double(value)) { maximumHeartRate = nil; dropped += 1 }
        if let value = start, !(Plausible.earliestMilliseconds...Int64(4_102_444_800_000)).contains(value) { start = nil; dropped += 1 }
        return dropped
    }
}

/// One leg of a multisport recording (a FIT file with a session per sport: swim, transition, bike,
/// transition, run), with the time and distance the device wrote for it.
public struct ActivityLeg: Equatable, Sendable {
    /// The leg's sport; `.other` when the device named none (FIT "generic") or for a transition.
    public var sport: WorkoutSport
    /// A change between two sports (FIT "transition"): T1 from the water to the bike, T2 to the run.
    public var isTransition: Bool
    /// Epoch milliseconds.
    public var start: Int64?
    /// Seconds from the leg's start to its end, pauses included.
    public var elapsed: Double?
    public var distance: Double?

    public init(sport: WorkoutSport, isTransition: Bool = false, start: Int64? = nil, elapsed: Double? = nil, distance: Double? = nil) {
        self.sport = sport
        self.isTransition = isTransition
        self.start = start
        self.elapsed = elapsed
        self.distance = distance
    }

    /// How the leg's kind is stored: a sport's raw value, or "transition".
    public var kind: String { isTransition ? "transition" : sport.rawValue }

    public init?(kind: String, start: Int64?, elapsed: Double?, distance: Double?) {
        if kind == "transition" {
            self.init(sport: .other, isTransition: true, start: start, elapsed: elapsed, distance: distance)
        } else if let sport = WorkoutSport(rawValue: kind) {
            self.init(sport: sport, start: start, elapsed: elapsed, distance: distance)
        } else {
            return nil
        }
    }

    /// What `SpeedSpikes` allows in the leg: in a transition people run with a bike or ride out of
    /// the park, so the fastest of any sport.
    var topSpeed: Double { Plausible.topSpeed(isTransition ? .other : sport) }
}
