import Foundation

/// What the summary needs to know about the person. Every field may be missing; the summary then
/// falls back to a general rule and says which (`WorkoutSummary.notes`).
public struct AthleteProfile: Equatable, Sendable {
    public enum Sex: Sendable { case female, male }
    public var age: Int?
    public var sex: Sex?
    public var weightKg: Double?
    /// A measured or coach-set maximum; otherwise 208 − 0.7 × age (Tanaka et al. 2001).
    public var maxHeartRate: Int?
    public var restingHeartRate: Int?
    /// Lower limits of zones 1–5 in bpm, ascending; nil uses 50/60/70/80/90 % of the maximum.
    public var zoneLimits: [Int]?

    public init(
        age: Int? = nil, sex: Sex? = nil, weightKg: Double? = nil, maxHeartRate: Int? = nil,
        restingHeartRate: Int? = nil, zoneLimits: [Int]? = nil
    ) {
        self.age = age
        self.sex = sex
        self.weightKg = weightKg
        self.maxHeartRate = maxHeartRate
        self.restingHeartRate = restingHeartRate
        self.zoneLimits = zoneLimits
    }
}

/// A workout's numbers, computed from its points. All times in seconds, distances in metres,
/// speeds in metres per second.
public struct WorkoutSummary: Equatable, Sendable {
    public enum CalorieMethod: String, Sendable {
        /// From heart rate, age, sex and weight (Keytel et al. 2005).
        case heartRate = "heart_rate"
        /// MET of the sport × weight × hours.
        case met
        /// As the device wrote it.
        case device
    }

    public var elapsed: Double = 0
    public var moving: Double = 0
    public var distance: Double?
    public var minSpeed: Double?
    public var avgSpeed: Double?
    public var maxSpeed: Double?
    public var elevationGain: Double?
    public var minHeartRate: Int?
    public var avgHeartRate: Int?
    public var maxHeartRate: Int?
    /// The maximum the zones were computed from, and the five zones' lower limits in bpm.
    public var zoneMaximum: Int?
    public var zoneLimits: [Int] = []
    /// Seconds in zones 1–5 (time below zone 1 is in none).
    public var zoneSeconds: [Double] = [0, 0, 0, 0, 0]
    public var trimp: Double?
    public var steps: Int?
    public var calories: Double?
    public var calorieMethod: CalorieMethod?
    /// Where a general rule replaced a missing profile field, in words for the person. Always in
    /// English: they are stored with the workout, and pages translate them (`WorkoutNotes.display`).
    public var notes: [String] = []

    /// Seconds per kilometre at the average speed.
    public var pace: Double? { avgSpeed.flatMap { $0 > 0 ? 1000 / $0 : nil } }

    /// Slower than this, a person counts as standing still (walking is about 1.4 m/s).
    public static let movingSpeed = 0.5
    /// A gap longer than this between points is a pause, not movement.
    public static let pauseGap: Int64 = 60_000
    /// Fixes less accurate than this are left out of the distance.
    public static let worstAccuracy = 50.0
    /// Rises smaller than this are GPS and barometer noise, not climbing.
    public static let elevationThreshold = 3.0
    /// One heart-rate sample stands for at most this long; longer gaps are missing data.
    public static let heartRateHold: Int64 = 10_000
    /// Speeds are measured over at least this window, so one jumpy fix does not make a sprint.
    public static let speedWindow: Int64 = 5_000

    public init() {}

    /// Cumulative great-circle distance at each point: fixes worse than `worstAccuracy` and points
    /// without a position add nothing, and no distance is counted across a segment start.
    public static func cumulativeDistance(_ points: [TrackPoint], segmentStarts: Set<Int> = []) -> [Double] {
        var result = [Double](repeating: 0, count: points.count)
        var total = 0.0
        var last: Coordinate?
        for (index, point) in points.enumerated() {
            if segmentStarts.contains(index) { last = nil }
            if let here = point.coordinate, (point.accuracy ?? 0) <= worstAccuracy {
                if let last { total += Geo.distance(last, here) }
                last = here
            }
            result[index] = total
        }
        return result
    }

    /// Total climbing: a rise counts once it is `threshold` above the lowest point since the last
    /// counted rise, so noise of a metre up and down adds nothing.
    public static func elevationGain(_ elevations: [Double], threshold: Double = elevationThreshold) -> Double {
        guard var reference = elevations.first else { return 0 }
        var gain = 0.0
        for elevation in elevations.dropFirst() {
            if elevation - reference >= threshold {
                gain += elevation - reference
                reference = elevation
            } else if elevation < reference {
                reference = elevation
            }
        }
        return gain
    }

    /// Keytel et al. (2005) energy expenditure in kcal per minute from heart rate (no VO2max).
    public static func keytelKcalPerMinute(heartRate: Double, age: Int, sex: AthleteProfile.Sex, weightKg: Double) -> Double {
        let kilojoules: Double
        switch sex {
        case .male: kilojoules = -55.0969 + 0.6309 * heartRate + 0.1988 * weightKg + 0.2017 * Double(age)
        case .female: kilojoules = -20.4022 + 0.4472 * heartRate - 0.1263 * weightKg + 0.074 * Double(age)
        }
        return max(0, kilojoules / 4.184)
    }

    /// Banister's TRIMP weighting of one minute at a heart-rate reserve fraction.
    public static func trimpPerMinute(reserve: Double, sex: AthleteProfile.Sex?) -> Double {
        let r = min(1, max(0, reserve))
        switch sex {
        case .female: return r * 0.86 * exp(1.67 * r)
        // The male constants are Banister's original and what most tools use when sex is unknown.
        case .male, nil: return r * 0.64 * exp(1.92 * r)
        }
    }

    /// `points` in time order. Positions too fast for the sport (or a multisport recording's leg)
    /// are left out first (`SpeedSpikes`), and the notes say how many.
    public static func compute(
        points given: [TrackPoint], segmentStarts givenStarts: Set<Int> = [], start: Int64? = nil, end: Int64? = nil,
        sport: WorkoutSport, profile: AthleteProfile, steps: Int? = nil,
        device: DeviceTotals = DeviceTotals(), legs: [ActivityLeg] = []
    ) -> WorkoutSummary {
        var summary = WorkoutSummary()
        let cleaned = SpeedSpikes.clean(given, segmentStarts: givenStarts, sport: sport, legs: legs)
        let points = cleaned.points, segmentStarts = cleaned.segmentStarts
        if let note = cleaned.note { summary.notes.append(note) }
        let first = start ?? points.first?.time ?? 0
        let last = end ?? points.last?.time ?? first
        summary.elapsed = Double(max(0, last - first)) / 1000
        // The device's own total time, when the caller passes one (a multisport recording's legs
        // added up), is preferred, like its odometer.
        if let elapsed = device.elapsed, elapsed > 0, elapsed.isFinite { summary.elapsed = elapsed }
        summary.steps = steps
        let topSpeeds = SpeedSpikes.topSpeeds(points, sport: sport, legs: legs)

        // Distance and speed.
        let positioned = points.contains { $0.coordinate != nil }
        let cumulative = cumulativeDistance(points, segmentStarts: segmentStarts)
        if positioned { summary.distance = cumulative.last }
        if let odometer = device.distance, odometer > 0 { summary.distance = odometer }

        var moving = 0.0
        var speeds: [Double] = []
        // Movement is measured between usable points: a good fix or a device speed. Points that
        // carry only heart rate (a strap merged onto a phone's run) fall between them.
        func usable(_ point: TrackPoint) -> Bool {
            point.speed != nil || (point.coordinate != nil && (point.accuracy ?? 0) <= worstAccuracy)
        }
        var previous: Int?
        var window: [Int] = []
        var windowStart = 0
        for i in points.indices {
            if segmentStarts.contains(i) { previous = nil; window.removeAll(); windowStart = 0 }
            guard positioned || points[i].speed != nil else {
                // No way to tell movement: count everything but pauses.
                if i > 0 {
                    let dt = points[i].time - points[i - 1].time
                    if dt <= pauseGap { moving += Double(dt) / 1000 }
                }
                continue
            }
            guard usable(points[i]) else { continue }
            defer { previous = i; window.append(i) }
            guard let before = previous else { continue }
            let dt = points[i].time - points[before].time
            guard dt > 0 else { continue }
            let stepSpeed = points[i].speed ?? (cumulative[i] - cumulative[before]) / (Double(dt) / 1000)
            if dt <= pauseGap && stepSpeed >= movingSpeed { moving += Double(dt) / 1000 }
            // Speed over the shortest window of at least `speedWindow` ending here.
            while windowStart + 1 < window.count && points[i].time - points[window[windowStart + 1]].time >= speedWindow { windowStart += 1 }
            let from = window[windowStart]
            let span = points[i].time - points[from].time
            guard span >= speedWindow, span <= 4 * speedWindow || points[i].speed != nil else { continue }
            let speed = points[i].speed ?? (cumulative[i] - cumulative[from]) / (Double(span) / 1000)
            // Faster than the sport allows over a window is two fixes' error adding up, not a sprint.
            if speed >= movingSpeed && speed <= topSpeeds[i] { speeds.append(speed) }
        }
        summary.moving = moving
        if let distance = summary.distance, moving > 0, positioned || device.distance != nil {
            summary.avgSpeed = distance / moving
            summary.minSpeed = speeds.min()
            summary.maxSpeed = speeds.max()
            if let top = summary.maxSpeed, distance / moving > top {
                // Faster on average than over any stretch measured: the person moved during a gap in
                // the recording (a tunnel, a watch that lost its fix), which the moving time missed.
                // Covering the distance takes at least as long as it does at the top speed.
                summary.moving = min(max(summary.elapsed, moving), distance / top)
                summary.avgSpeed = distance / summary.moving
                summary.maxSpeed = max(top, distance / summary.moving)
                summary.minSpeed = min(summary.minSpeed ?? top, summary.avgSpeed!)
            }
        }

        let elevations = points.compactMap(\.elevation)
        if elevations.count >= 2 { summary.elevationGain = elevationGain(elevations) }

        // Heart rate.
        var heartRates: [(bpm: Int, seconds: Double)] = []
        var next: TrackPoint?
        for point in points.reversed() where point.heartRate != nil {
            let hold = next.map { Double(min($0.time - point.time, heartRateHold)) / 1000 } ?? 0
            heartRates.append((point.heartRate!, hold))
            next = point
        }
        heartRates.reverse()
        if !heartRates.isEmpty {
            summary.minHeartRate = heartRates.map(\.bpm).min()
            summary.maxHeartRate = heartRates.map(\.bpm).max()
            summary.avgHeartRate = Int((Double(heartRates.map(\.bpm).reduce(0, +)) / Double(heartRates.count)).rounded())

            let maximum: Int
            if let measured = profile.maxHeartRate {
                maximum = measured
            } else if let age = profile.age {
                maximum = Int((208 - 0.7 * Double(age)).rounded())
            } else {
                maximum = 190
                summary.notes.append("Heart-rate zones assume a maximum of 190 bpm: add your birth date (or a measured maximum) to your profile.")
            }
            summary.zoneMaximum = maximum
            let limits = profile.zoneLimits ?? [0.5, 0.6, 0.7, 0.8, 0.9].map { Int((Double(maximum) * $0).rounded()) }
            summary.zoneLimits = limits
            for (bpm, seconds) in heartRates {
                if let zone = limits.lastIndex(where: { bpm >= $0 }) { summary.zoneSeconds[zone] += seconds }
            }

            let resting = profile.restingHeartRate ?? 60
            if profile.restingHeartRate == nil && profile.zoneLimits == nil {
                summary.notes.append("Training load (TRIMP) assumes a resting heart rate of 60 bpm.")
            }
            if maximum > resting {
                summary.trimp = heartRates.reduce(0) { total, sample in
                    total + sample.seconds / 60 * trimpPerMinute(reserve: Double(sample.bpm - resting) / Double(maximum - resting), sex: profile.sex)
                }
            }
        }

        // Calories.
        if !heartRates.isEmpty, let age = profile.age, let sex = profile.sex, let weight = profile.weightKg {
            summary.calories = heartRates.reduce(0) { total, sample in
                total + sample.seconds / 60 * keytelKcalPerMinute(heartRate: Double(sample.bpm), age: age, sex: sex, weightKg: weight)
            }
            summary.calorieMethod = .heartRate
        } else if let kcal = device.calories, kcal > 0 {
            summary.calories = Double(kcal)
            summary.calorieMethod = .device
        } else {
            let hours = (moving > 0 ? moving : summary.elapsed) / 3600
            let weight = profile.weightKg ?? 70
            summary.calories = sport.met * weight * hours
            summary.calorieMethod = .met
            var missing: [String] = []
            if !heartRates.isEmpty {
                if profile.age == nil { missing.append("birth date") }
                if profile.sex == nil { missing.append("sex") }
                if profile.weightKg == nil { missing.append("weight") }
            } else if profile.weightKg == nil {
                missing.append("weight")
            }
            var note = "Calories are estimated from the sport's typical effort (MET × weight × time)"
            if profile.weightKg == nil { note += " for a 70 kg person" }
            if !missing.isEmpty {
                note += ": add your \(missing.joined(separator: ", ")) to your profile for a better figure"
            } else if heartRates.isEmpty {
                note += ", as there is no heart rate"
            }
            summary.notes.append(note + ".")
        }
        return summary
    }
}
