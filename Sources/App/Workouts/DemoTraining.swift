import FieldhouseKit
import Fluent
import Foundation

/// Generated training history for demo people: a weekly habit turned into months of workouts
/// whose tracks, heart rates and paces are reshaped from four real recordings, so charts, maps,
/// statistics and trends have something true-looking to show. Deterministic for a given seed.
struct DemoTraining {
    /// The real recordings the tracked workouts are cut from.
    struct Shapes: Sendable {
        let run: ActivityRecording // fenix2 FIT: 9 km at 1 Hz with heart rate
        let tempo: ActivityRecording // TCX: three fast laps with heart rate
        let ride: ActivityRecording // Edge 500 FIT: 92 km with heart rate and cadence
        let walk: ActivityRecording // GPX round a lake, no heart rate

        static func load(from folder: String, now: Date) throws -> Shapes {
            func read(_ file: String) throws -> ActivityRecording {
                let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: folder + file)))
                guard case .activity(let recording) = try ActivityFile.read(bytes, now: now) else {
                    throw DemoTrainingError.notAnActivity(file)
                }
                return recording
            }
            return try Shapes(
                run: read("activity-small-fenix2-run.fit"), tempo: read("test.tcx"),
                ride: read("garmin-edge-500-activity.fit"), walk: read("cerknicko-jezero.gpx"))
        }
    }

    enum Kind: CaseIterable {
        case easyRun, tempoRun, ride, walk, futsal, swim, strength

        var sport: WorkoutSport {
            switch self {
            case .easyRun, .tempoRun: .running
            case .ride: .cycling
            case .walk: .walking
            case .futsal: .soccer
            case .swim: .swimming
            case .strength: .strength
            }
        }

        var name: String {
            switch self {
            case .easyRun: "Easy run"
            case .tempoRun: "Tempo run"
            case .ride: "Ride"
            case .walk: "Walk"
            case .futsal: "Futsal"
            case .swim: "Swim"
            case .strength: "Strength session"
            }
        }
    }

    /// What a person tends to do on each weekday (0 = Sunday): each entry is a kind and the chance
    /// of doing it that day (rides and walks are half as likely again from May to September); the
    /// first that happens is the day's workout. `fitnessGain` is how much slower they were a year ago.
    struct Habit: Sendable {
        var week: [Int: [(Kind, Double)]]
        var hour: Int
        var weeksOff: Int
        var fitnessGain: Double
    }

    static let maya = Habit(
        week: [
            1: [(.easyRun, 0.7)],
            2: [(.strength, 0.3)],
            3: [(.ride, 0.5)],
            4: [(.futsal, 0.85)],
            6: [(.tempoRun, 0.45), (.walk, 0.3)],
            0: [(.ride, 0.45), (.swim, 0.25)],
        ], hour: 17, weeksOff: 4, fitnessGain: 0.1)

    let shapes: Shapes
    let habit: Habit
    /// Where generated tracks begin: the person's home area.
    let home: Coordinate

    /// Adds workouts from `fromDaysAgo` back to `toDaysAgo` (inclusive, counted in the person's
    /// time zone) and returns how many. Tracked workouts older than `samplesFor` days keep only
    /// their numbers (no samples), which keeps a large squad's demo quick to load.
    func seed(
        for user: User, fromDaysAgo newest: Int, toDaysAgo oldest: Int, seed: UInt64, samplesFor: Int = .max,
        now: Date, on db: any Database
    ) async throws -> Int {
        var random = SeededGenerator(seed: seed)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.named(user.timeZone)
        let today = calendar.startOfDay(for: now)
        let weeks = (oldest - newest) / 7 + 1
        // Holidays and colds: `weeksOff` a year, fewer in a shorter history.
        let weeksOff = Set((0..<(habit.weeksOff * weeks / 52)).map { _ in Int.random(in: 0..<max(weeks, 1), using: &random) })
        var added = 0
        for daysAgo in stride(from: oldest, through: newest, by: -1) {
            guard !weeksOff.contains((daysAgo - newest) / 7) else { continue }
            let day = calendar.date(byAdding: .day, value: -daysAgo, to: today)!
            let weekday = calendar.component(.weekday, from: day) - 1
            let month = calendar.component(.month, from: day)
            // How far along the year of training this day is: paces quicken, heart rates calm.
            let progress = 1 - Double(daysAgo - newest) / Double(max(oldest - newest, 1))
            for (kind, chance) in habit.week[weekday] ?? [] {
                let summer = (5...9).contains(month) && (kind == .ride || kind == .walk) ? 1.5 : 1
                guard Double.random(in: 0..<1, using: &random) < chance * summer else { continue }
                let minute = Int.random(in: 0..<50, using: &random)
                let hour = kind == .futsal ? 18 : (weekday == 0 || weekday == 6 ? 10 : habit.hour)
                let start = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)!
                let startMS = Int64(start.timeIntervalSince1970) * 1000
                guard startMS < Int64(now.timeIntervalSince1970) * 1000 - 3 * 3_600_000 else { continue }
                try await add(
                    kind, start: startMS, progress: progress, samples: daysAgo <= samplesFor, user: user, random: &random, today: LocalTime.utcDay(of: now),
                    on: db)
                added += 1
                break
            }
        }
        return added
    }

    private func add(
        _ kind: Kind, start: Int64, progress: Double, samples: Bool, user: User, random: inout SeededGenerator,
        today: CalendarDate, on db: any Database
    ) async throws {
        let pace = 1 + habit.fitnessGain * (1 - progress) + Double.random(in: -0.04...0.04, using: &random)
        let calmer = Int((8 * (1 - progress)).rounded()) + Int.random(in: -3...3, using: &random)
        let userID = try user.requireID()
        let shape: ActivityRecording?
        let variant: Variant
        switch kind {
        case .easyRun:
            shape = shapes.run
            variant = Variant(fraction: .random(in: 0.55...1, using: &random), every: 2, reversed: .random(using: &random))
        case .tempoRun:
            shape = shapes.tempo
            variant = Variant(fraction: 1, every: 1, reversed: false)
        case .ride:
            shape = shapes.ride
            variant = Variant(fraction: .random(in: 0.3...0.7, using: &random), every: 4, reversed: .random(using: &random))
        case .walk:
            shape = shapes.walk
            variant = Variant(fraction: 1, every: 1, reversed: .random(using: &random))
        case .futsal, .swim, .strength:
            shape = nil
            variant = Variant(fraction: 1, every: 1, reversed: false)
        }
        guard let shape else {
            let minutes: Double =
                switch kind {
                case .futsal: 75
                case .swim: .random(in: 30...45, using: &random).rounded()
                default: .random(in: 30...50, using: &random).rounded()
                }
            let workout = Workout(
                user: userID, sport: kind.sport, name: kind.name, start: start, end: start + Int64(minutes * 60_000),
                source: "manual", visibility: Workout.defaultVisibility(for: user, today: today))
            if kind == .swim { workout.deviceDistance = (minutes * 40 / (0.9 + 0.1 * pace) / 50).rounded() * 50 }
            let heartRate: Int =
                switch kind {
                case .futsal: 150
                case .swim: 132
                default: 118
                }
            workout.summariseTyped(for: user, averageHeartRate: heartRate + calmer, steps: nil)
            try await workout.create(on: db)
            return
        }
        let recording = variant.apply(to: shape, start: start, pace: pace, heartRateShift: calmer, home: home)
        guard samples else {
            let workout = Workout(
                user: userID, sport: kind.sport, name: kind.name, start: start, end: recording.end!,
                source: recording.format.rawValue, visibility: Workout.defaultVisibility(for: user, today: today))
            workout.summarise(WorkoutTimeline(points: recording.points, steps: nil), for: user, zones: [])
            workout.streams = ""
            try await workout.create(on: db)
            return
        }
        let options = WorkoutImporter.Options(name: kind.name, sport: kind.sport, externalID: "demo-\(userID)-\(start)", filename: "demo")
        _ = try await db.inTransaction { db in
            try await WorkoutImporter.save(
                recording, start: recording.start!, end: recording.end!, hash: "demo-\(userID)-\(start)",
                options: options, user: user, today: today, on: db)
        }
    }

    /// One way of reshaping a recording: a share of it, every n-th point, maybe run backwards.
    struct Variant {
        var fraction: Double
        var every: Int
        var reversed: Bool

        func apply(to shape: ActivityRecording, start: Int64, pace: Double, heartRateShift: Int, home: Coordinate) -> ActivityRecording {
            let count = max(2, Int(Double(shape.points.count) * fraction))
            var points = Array(shape.points.prefix(count))
            // A gap before index s becomes, reversed, a gap before index count − s.
            var gaps = shape.segmentStarts.filter { $0 > 0 && $0 < count }
            if reversed {
                let last = points[count - 1].time, first = points[0].time
                points.reverse()
                for index in points.indices { points[index].time = first + (last - points[index].time) }
                gaps = Set(gaps.map { count - $0 })
            }
            var kept: [TrackPoint] = []
            var keptGaps = Set<Int>()
            for (index, point) in points.enumerated() where index % every == 0 || gaps.contains(index) || index == count - 1 {
                if gaps.contains(index) { keptGaps.insert(kept.count) }
                kept.append(point)
            }
            let first = kept[0]
            let origin = first.coordinate ?? home
            let stretch = cos(origin.latitude * .pi / 180) / cos(home.latitude * .pi / 180)
            for index in kept.indices {
                var point = kept[index]
                point.time = start + Int64((Double(point.time - first.time) * pace).rounded())
                if let lat = point.latitude, let lon = point.longitude {
                    point.latitude = home.latitude + (lat - origin.latitude)
                    point.longitude = home.longitude + (lon - origin.longitude) * stretch
                }
                point.heartRate = point.heartRate.map { min(200, max(45, $0 + heartRateShift)) }
                point.speed = point.speed.map { $0 / pace }
                // The device's odometer belonged to the whole, forwards recording.
                point.distance = nil
                kept[index] = point
            }
            var recording = ActivityRecording(format: shape.format, sport: shape.sport, points: kept, segmentStarts: keptGaps)
            recording.name = nil
            return recording
        }
    }
}

enum DemoTrainingError: Error, CustomStringConvertible {
    case notAnActivity(String)
    var description: String {
        switch self {
        case .notAnActivity(let file): "Resources/Demo/workouts/\(file) is not an activity recording"
        }
    }
}
