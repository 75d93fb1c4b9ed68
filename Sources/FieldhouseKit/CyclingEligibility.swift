import Foundation

/// Whether a person is really arriving by bike, decided from the phone's motion readings and speeds
/// (after Biklio's TRACE): a few readings could be a misread, so each step needs a run of them. A
/// speed (the device's, or measured between its positions: `PositionSpeeds`) reads as cycling in
/// `Rules.cyclingSpeeds` and as a vehicle above `Rules.vehicleSpeed`.
///
///     ineligible ──N cycling──▶ cycling_ineligible ──cycling for T──▶ cycling_eligible
///         ▲                        │ N not cycling                       │ N not cycling
///         │◀───────────────────────┘                                     ▼
///         │◀──────── end of the day ─────────────────────────────── unknown_eligible
///         │                                                              │ N cycling: back
///     vehicular ◀── N in a vehicle, or a speed no bike reaches, from any state but vehicular
///         └── after the cool-down, unless N readings say otherwise first (then back where it was)
///
/// Readings come in time order per batch; a reading at or before the last one applied is ignored, so
/// a retried batch changes nothing. Low-confidence readings are ignored rather than counted.
public enum CyclingEligibility {
    public enum State: String, Codable, Sendable, CaseIterable {
        case ineligible
        case cyclingIneligible = "cycling_ineligible"
        case cyclingEligible = "cycling_eligible"
        case unknownEligible = "unknown_eligible"
        case vehicular

        /// A check-in in this state earns the place's reward.
        public var isEligible: Bool { self == .cyclingEligible || self == .unknownEligible }
    }

    /// What one reading says.
    public enum Reading: String, Codable, Sendable {
        case cycling
        case vehicle
        /// Walking, running, standing still: not on a bike, not in a car.
        case other
    }

    public struct Event: Sendable, Equatable {
        /// Milliseconds since 1970.
        public var time: Int64
        public var reading: Reading

        public init(time: Int64, reading: Reading) {
            self.time = time
            self.reading = reading
        }

        /// A motion sample ("cycling", "automotive", …) as a reading; nil when it says nothing (unknown,
        /// or less sure than `minimumConfidence`).
        public static func motion(time: Int64, activity: String, confidence: Int?, rules: Rules) -> Event? {
            if let confidence, confidence < rules.minimumConfidence { return nil }
            switch activity {
            case "cycling": return Event(time: time, reading: .cycling)
            case "automotive": return Event(time: time, reading: .vehicle)
            case "walking", "running", "stationary": return Event(time: time, reading: .other)
            default: return nil
            }
        }

        /// A location's speed (m/s) as a reading: a speed no bike reaches is a vehicle, one in
        /// `rules.cyclingSpeeds` is cycling (with or without motion labels: a browser has none).
        /// Anything slower says nothing: a rider waits at lights, and a jog is not a ride.
        public static func speed(time: Int64, metresPerSecond: Double, rules: Rules) -> Event? {
            guard metresPerSecond.isFinite else { return nil }
            if metresPerSecond > rules.vehicleSpeed { return Event(time: time, reading: .vehicle) }
            return rules.cyclingSpeeds.contains(metresPerSecond) ? Event(time: time, reading: .cycling) : nil
        }
    }

    /// The thresholds, from configuration (`AppConfig`).
    public struct Rules: Sendable, Equatable {
        /// N: readings in a row that move the state.
        public var readingsInARow: Int
        /// T: how long someone cycles before they are eligible, in seconds.
        public var cyclingSeconds: Double
        /// Faster than this (m/s) is a vehicle.
        public var vehicleSpeed: Double
        /// Speeds (m/s) that read as cycling: above what most runners keep up for long, below what
        /// riders keep up on the flat (faster, down a hill or in traffic, says nothing either way).
        public var cyclingSpeeds: ClosedRange<Double>
        /// How long a vehicle state holds before eligibility is lost, in seconds.
        public var vehicleCoolDown: Double
        /// Cycling readings further apart than this (seconds) do not add up to one ride.
        public var maximumGap: Double
        /// Motion readings less sure than this (0–100) are ignored.
        public var minimumConfidence: Int

        public init(
            readingsInARow: Int = 3, cyclingSeconds: Double = 600, vehicleSpeed: Double = 60 / 3.6, vehicleCoolDown: Double = 300,
            maximumGap: Double = 180, minimumConfidence: Int = 50, cyclingSpeeds: ClosedRange<Double> = (15 / 3.6)...(40 / 3.6)
        ) {
            self.readingsInARow = max(1, readingsInARow)
            self.cyclingSpeeds = cyclingSpeeds
            // Bounded to a day, so every duration converts to milliseconds without overflow.
            self.cyclingSeconds = min(max(0, cyclingSeconds), 86_400)
            self.vehicleSpeed = vehicleSpeed
            self.vehicleCoolDown = min(max(0, vehicleCoolDown), 86_400)
            self.maximumGap = min(max(1, maximumGap), 86_400)
            self.minimumConfidence = minimumConfidence
        }
    }

    /// Everything the machine remembers about one person between batches.
    public struct Status: Codable, Sendable, Equatable {
        public var state: State = .ineligible
        /// When the state was entered (ms).
        public var since: Int64 = 0
        /// The last reading applied (ms); earlier ones are ignored.
        public var lastReading: Int64 = 0
        /// The current run of identical readings.
        public var run: Reading? = nil
        public var runLength: Int = 0
        /// When the current ride began (the first reading of the cycling run that started it).
        public var rideStart: Int64? = nil
        /// An eligible state holds until this instant (the end of the day it was last confirmed in).
        public var eligibleUntil: Int64? = nil
        /// The state a vehicle reading interrupted, to return to if it was a misread.
        public var beforeVehicle: State? = nil

        public init() {}
    }

    public struct Transition: Sendable, Equatable {
        public var time: Int64
        public var from: State
        public var to: State
        /// In words, for the person's history: "3 cycling readings in a row". Always in English: it is
        /// stored, and pages translate it (`CyclingTracker.causeText`).
        public var cause: String
    }

    /// Applies `events` (sorted by time) and then the passing of time up to `now`; returns the
    /// transitions made, in order. `endOfDay` gives the end of the person's local day containing an
    /// instant (ms).
    public static func advance(
        _ status: inout Status, events: [Event], now: Int64, rules: Rules, endOfDay: (Int64) -> Int64
    ) -> [Transition] {
        var made: [Transition] = []
        func move(_ to: State, at time: Int64, _ cause: String) {
            made.append(Transition(time: time, from: status.state, to: to, cause: cause))
            status.state = to
            status.since = time
            status.run = nil
            status.runLength = 0
        }
        func lapse(until time: Int64) {
            if status.state == .vehicular, status.since + Int64(rules.vehicleCoolDown * 1000) <= time {
                move(
                    .ineligible, at: status.since + Int64(rules.vehicleCoolDown * 1000),
                    "no reading said otherwise within \(minutesText(rules.vehicleCoolDown)) of the vehicle")
                status.beforeVehicle = nil
                status.eligibleUntil = nil
                status.rideStart = nil
            }
            if status.state.isEligible, let until = status.eligibleUntil, until <= time {
                move(.ineligible, at: until, "the day ended")
                status.eligibleUntil = nil
                status.rideStart = nil
            }
        }

        for event in events where event.time > status.lastReading {
            lapse(until: event.time)
            // Readings far apart are not one ride, nor one run: silence breaks both.
            let gap = Double(event.time - status.lastReading) / 1000 > rules.maximumGap
            if gap {
                status.run = nil
                status.runLength = 0
                if status.state == .cyclingIneligible { status.rideStart = event.reading == .cycling ? event.time : nil }
            }
            status.lastReading = event.time
            if status.run == event.reading {
                status.runLength += 1
            } else {
                status.run = event.reading
                status.runLength = 1
            }
            let n = rules.readingsInARow
            let inARow = status.runLength >= n
            let count = "\(n) \(n == 1 ? "reading" : "readings") in a row"

            if event.reading == .cycling {
                if status.runLength == 1, status.state == .ineligible { status.rideStart = event.time }
                if status.state == .cyclingIneligible, status.rideStart == nil { status.rideStart = event.time }
                if status.state.isEligible { status.eligibleUntil = endOfDay(event.time) }
            }

            switch (status.state, event.reading) {
            case (.vehicular, .vehicle):
                // Still in a vehicle: the cool-down counts from the latest sign of it.
                status.since = event.time
            case (.vehicular, _):
                if inARow, let back = status.beforeVehicle {
                    status.beforeVehicle = nil
                    if back.isEligible, let until = status.eligibleUntil, until <= event.time {
                        // The day ended in the vehicle: a new day needs a new ride.
                        move(.ineligible, at: event.time, "the day ended while in a vehicle")
                        status.eligibleUntil = nil
                        status.rideStart = nil
                    } else {
                        let resumed = back == .cyclingEligible && event.reading != .cycling ? State.unknownEligible : back
                        move(resumed, at: event.time, "\(count) that were not in a vehicle")
                        if resumed.isEligible, event.reading == .cycling { status.eligibleUntil = endOfDay(event.time) }
                    }
                }
            case (_, .vehicle):
                if inARow {
                    status.beforeVehicle = status.state
                    move(.vehicular, at: event.time, "\(count) in a vehicle or faster than a bike")
                }
            case (.ineligible, .cycling):
                if inARow { move(.cyclingIneligible, at: event.time, "\(count) cycling") }
            case (.cyclingIneligible, .cycling):
                if let start = status.rideStart, Double(event.time - start) / 1000 >= rules.cyclingSeconds {
                    move(.cyclingEligible, at: event.time, "cycling for \(minutesText(rules.cyclingSeconds))")
                    status.eligibleUntil = endOfDay(event.time)
                }
            case (.cyclingIneligible, .other):
                if inARow {
                    move(.ineligible, at: event.time, "\(count) not cycling before \(minutesText(rules.cyclingSeconds)) on the bike")
                    status.rideStart = nil
                }
            case (.cyclingEligible, .other):
                if inARow { move(.unknownEligible, at: event.time, "\(count) not cycling; eligible until the end of the day") }
            case (.unknownEligible, .cycling):
                if inARow { move(.cyclingEligible, at: event.time, "\(count) cycling") }
            default:
                break
            }
        }
        lapse(until: now)
        return made
    }

    /// "1 minute", "20 minutes", in English as causes are stored (`CyclingTracker.minutesText` for pages).
    public static func minutesText(_ seconds: Double) -> String {
        let m = Int((seconds / 60).rounded())
        return m == 1 ? "1 minute" : "\(m) minutes"
    }
}

/// A position a phone sent: when it was taken and when the server received it (ms since 1970).
public struct RideFix: Sendable, Equatable {
    public var time: Int64
    public var place: Coordinate
    public var received: Int64

    public init(time: Int64, place: Coordinate, received: Int64) {
        self.time = time
        self.place = place
        self.received = received
    }
}

/// Whether where a phone was in the last minutes is a bike ride that ends at a place: motion labels
/// alone come from the client and say whatever it likes, so a reward also rests on positions that
/// take real time to send. Live: each position received at most `lateness` after it was taken,
/// the first of them at least half the window before the check (a ride sent at the door in one
/// batch is not one); covered: positions over most of the last `window` with no long gap; moved: an
/// average speed a bike keeps (8 km/h and up, below a vehicle's); not driven: at most a tenth of
/// the time faster than `rules.vehicleSpeed`; arrived: the newest position, at most two minutes
/// old, inside the place's circle.
public enum RideCheck {
    public enum Verdict: String, Sendable, Equatable {
        case ride, tooFewReadings, tooSlow, tooFast, notHere
    }

    /// A bike keeps at least this average, stops at lights included (m/s).
    public static let slowest = 8 / 3.6
    /// The newest position may be this old (ms).
    public static let freshness: Int64 = 120_000
    /// A position received later than this after it was taken (ms) is not live.
    public static let lateness: Int64 = 300_000

    /// The stretch of time looked at, in seconds: the cycling time the rules ask for, 5 to 30 minutes.
    public static func window(_ rules: CyclingEligibility.Rules) -> Double {
        min(max(rules.cyclingSeconds, 300), 1800)
    }

    /// `fixes` in any order.
    public static func judge(_ fixes: [RideFix], endingAt place: Coordinate, radius: Double, now: Int64, rules: CyclingEligibility.Rules) -> Verdict {
        let window = window(rules)
        let from = now - Int64(window * 1000) - Int64(rules.maximumGap * 1000)
        // Live: received after it was taken (a little clock drift allowed) and not long after.
        let points = fixes.filter {
            $0.time >= from && $0.time <= now && $0.place.isValid && $0.received - $0.time <= lateness && $0.time - $0.received <= 30_000
        }
        .sorted { $0.time < $1.time }
        guard let last = points.last else { return .tooFewReadings }
        guard now - last.time <= freshness, Geo.distance(last.place, place) <= radius else { return .notHere }
        guard let first = points.first, Double(now - first.time) >= window * 0.8 * 1000,
            let arrived = points.map(\.received).min(), Double(now - arrived) >= window * 0.5 * 1000
        else { return .tooFewReadings }
        var metres = 0.0, fastSeconds = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            let seconds = Double(b.time - a.time) / 1000
            guard seconds <= rules.maximumGap else { return .tooFewReadings }
            guard seconds > 0 else { continue }
            let step = Geo.distance(a.place, b.place)
            metres += step
            if step / seconds > rules.vehicleSpeed { fastSeconds += seconds }
        }
        let span = Double(last.time - first.time) / 1000
        guard span > 0, fastSeconds <= span / 10, metres / span < rules.vehicleSpeed else { return .tooFast }
        guard metres / span >= slowest else { return .tooSlow }
        return .ride
    }
}
