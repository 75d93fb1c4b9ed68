import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// What a workout page draws, thinned once from the whole time line: about 600 points per chart,
/// 1,500 for the map and the splits in kilometres and in miles. It is made when a file is imported
/// (from the points in hand) or on the first view, and stored with the workout (`workouts.series`),
/// so opening a workout reads a few kilobytes instead of its 3,600 samples a stream.
///
/// It holds the owner's time line. Anyone else sees only this workout's own samples; when another of
/// the owner's workouts overlaps it, their view is drawn from the time line itself, never from this.
/// Units, labels, privacy zones and tiles are applied when drawing (`WorkoutDrawings`), so one series
/// serves every viewer. Writing samples into a workout's window, or saving the workout, drops it
/// and moves `series_version` on.
struct WorkoutSeries: Equatable, Sendable {
    struct Split: Equatable, Sendable {
        /// Seconds the split took.
        let seconds: Double
        /// The mean heart rate over it, when there was one.
        let heartRate: Int?
        /// Metres, for the last split when it is shorter than a whole kilometre (or mile); nil for a whole one.
        var partial: Double? = nil
    }

    var hasHeartRate = false
    var hasLocations = false
    var hasElevation = false
    /// Seconds from the start and beats per minute (nil where a point has none).
    var heartSeconds: [Double] = []
    var heartRates: [Double?] = []
    /// Seconds from the start, speed in metres per second and elevation in metres, for the located points kept.
    var speedSeconds: [Double] = []
    var speeds: [Double?] = []
    var elevations: [Double?] = []
    /// The route, thinned, and the seconds from the start of each of its points (which link a
    /// reading on a chart to its place on the map).
    var path: [Coordinate] = []
    var pathSeconds: [Double] = []
    var kilometreSplits: [Split] = []
    var mileSplits: [Split] = []

    static let chartPoints = 600
    static let mapPoints = 1500

    init() {}

    init(workout: Workout, timeline: WorkoutTimeline) {
        let points = timeline.points
        guard !points.isEmpty else { return }
        hasHeartRate = timeline.hasHeartRate
        hasLocations = timeline.hasLocations
        hasElevation = timeline.hasElevation
        let seconds = points.map { Double($0.time - workout.startMS) / 1000 }
        if timeline.hasHeartRate {
            let keep = LTTB.indexes(x: seconds, y: points.map { $0.heartRate.map(Double.init) ?? 0 }, threshold: Self.chartPoints)
            heartSeconds = keep.map { seconds[$0] }
            heartRates = keep.map { points[$0].heartRate.map(Double.init) }
        }
        guard timeline.hasLocations else { return }
        // Drawn without the positions the summary left out as too fast for the sport (`SpeedSpikes`).
        let cleaned = SpeedSpikes.clean(
            points, segmentStarts: workout.segmentStarts(in: points), sport: WorkoutSport(rawValue: workout.sport) ?? .other, legs: workout.legList)
        let (located, starts) = cleaned.located
        guard !located.isEmpty else { return }
        let base = located.map { Double($0.time - workout.startMS) / 1000 }
        let distance = WorkoutSummary.cumulativeDistance(located, segmentStarts: starts)
        // Speed over ~10 s windows, as the summary measures it.
        var speeds: [Double?] = []
        speeds.reserveCapacity(located.count)
        var k = 0
        for i in located.indices {
            while k + 1 < i && located[i].time - located[k + 1].time >= 10_000 { k += 1 }
            let span = Double(located[i].time - located[k].time) / 1000
            speeds.append(located[i].speed ?? (span > 0 ? (distance[i] - distance[k]) / span : nil))
        }
        let shown = LTTB.indexes(x: base, y: speeds.map { $0 ?? 0 }, threshold: Self.chartPoints)
        speedSeconds = shown.map { base[$0] }
        self.speeds = shown.map { speeds[$0] }
        if timeline.hasElevation { elevations = shown.map { located[$0].elevation } }
        let onMap = LTTB.indexes(x: base, y: distance, threshold: Self.mapPoints).filter { located[$0].coordinate != nil }
        path = onMap.compactMap { located[$0].coordinate }
        pathSeconds = onMap.map { base[$0] }
        kilometreSplits = Self.splits(cleaned.points, located: located, distance: distance, starts: Set(starts), length: 1000)
        mileSplits = Self.splits(cleaned.points, located: located, distance: distance, starts: Set(starts), length: Format.metresPerMile)
    }

    /// The shortest last split worth a row: under 10 m it would read "0.00 km" at a pace of noise.
    static let shortestPartialSplit = 10.0

    /// One pass over the time line: heart rates add up until the next whole kilometre (or mile).
    /// What is left after the last whole one is a last, partial split with its own length (a 9.97 km
    /// run has nine splits and one of 0.97 km). The time between segments (`starts`: a new track, or
    /// where the visible part comes out of a privacy zone) counts in no split, as its distance
    /// counts in none: a split across a hidden stretch would tell how long was spent inside.
    static func splits(_ points: [TrackPoint], located: [TrackPoint], distance: [Double], starts: Set<Int>, length: Double) -> [Split] {
        guard let first = located.first else { return [] }
        var splits: [Split] = []
        var nextMark = length
        var markTime = first.time
        var markDistance = 0.0
        var locatedIndex = 0
        var beats = 0, beatCount = 0
        var skipped: Int64 = 0 // between segments, since the last mark
        for point in points {
            if point.time > markTime, let bpm = point.heartRate { beats += bpm; beatCount += 1 }
            guard locatedIndex < located.count, located[locatedIndex].time == point.time else { continue }
            defer { locatedIndex += 1 }
            if locatedIndex > 0, starts.contains(locatedIndex) { skipped += point.time - located[locatedIndex - 1].time }
            guard distance[locatedIndex] >= nextMark else { continue }
            splits.append(Split(seconds: Double(point.time - markTime - skipped) / 1000, heartRate: beatCount == 0 ? nil : beats / beatCount))
            markTime = point.time
            markDistance = nextMark
            nextMark += length
            beats = 0
            beatCount = 0
            skipped = 0
        }
        if let last = located.last, let total = distance.last, total - markDistance >= shortestPartialSplit, last.time > markTime {
            // Heart rate after the last position belongs to no split.
            splits.append(
                Split(
                    seconds: Double(last.time - markTime - skipped) / 1000, heartRate: beatCount == 0 ? nil : beats / beatCount,
                    partial: total - markDistance))
        }
        return splits
    }
}

// MARK: Reading and storing

extension WorkoutSeries {
    /// How many times the workout's series was dropped: it moves on whenever its samples or the
    /// workout change, so caches of what is drawn from it key on it.
    static func version(of workout: Workout, on db: any Database) async throws -> Int {
        try await db.sql.raw("SELECT series_version FROM workouts WHERE id = \(bind: workout.requireID())")
            .first()?.decode(column: "series_version", as: Int.self) ?? 0
    }

    /// The series a viewer's page is drawn from: the stored one, or one made from the time line (and
    /// stored, when it is the owner's and `version` is still the workout's). Nil while recording.
    static func load(_ workout: Workout, version: Int, ownerView: Bool, on db: any Database) async throws -> WorkoutSeries? {
        guard workout.endMS != nil else { return nil }
        if !ownerView, try await WorkoutTimeline.othersOverlapping(workout, on: db) {
            return try await WorkoutTimeline.load(workout, ownerView: false, on: db).map { WorkoutSeries(workout: workout, timeline: $0) }
        }
        let sql = db.sql
        let id = try workout.requireID()
        if let stored = try await sql.raw("SELECT series FROM workouts WHERE id = \(bind: id) AND series_version = \(bind: version)").first()?
            .decode(column: "series", as: Data?.self), let series = WorkoutSeries(stored: stored)
        {
            return series
        }
        guard let timeline = try await WorkoutTimeline.load(workout, ownerView: true, on: db) else { return nil }
        let series = WorkoutSeries(workout: workout, timeline: timeline)
        // Only if nothing dropped a series since the version was read: the samples read may be older
        // than a change made meanwhile.
        try await sql.raw("UPDATE workouts SET series = \(bind: series.stored) WHERE id = \(bind: id) AND series_version = \(bind: version)").run()
        return series
    }

    /// Stores the series of a workout just written (an import, inside its transaction).
    func store(for workout: Workout, on db: any Database) async throws {
        try await db.sql.raw("UPDATE workouts SET series = \(bind: stored) WHERE id = \(bind: workout.requireID())").run()
    }

    /// Drops the series of the person's finished workouts that overlap a stretch of time whose
    /// samples just changed, and moves their version on, so a view drawing from older samples at
    /// that moment does not store what it drew.
    static func drop(user: UUID, from: Int64, to: Int64, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE workouts SET series = NULL, series_version = series_version + 1
            WHERE user_id = \(bind: user) AND start_ms <= \(bind: to) AND end_ms >= \(bind: from)
            """
        ).run()
    }

    // The stored form: "FHS3", three flags, then each array as a count and little-endian numbers
    // (NaN for a missing value). Anything that does not read back whole is ignored and made again,
    // as are series of earlier forms ("FHS1" without the last partial split or the speed cleaning,
    // "FHS2" without the path's seconds).
    private static let magic: [UInt8] = Array("FHS3".utf8)

    var stored: Data {
        var out = Self.magic
        out += [hasHeartRate ? 1 : 0, hasLocations ? 1 : 0, hasElevation ? 1 : 0]
        func put(_ values: [Double?]) {
            var count = UInt32(values.count).littleEndian
            withUnsafeBytes(of: &count) { out += $0 }
            for value in values {
                var bits = (value ?? .nan).bitPattern.littleEndian
                withUnsafeBytes(of: &bits) { out += $0 }
            }
        }
        put(heartSeconds)
        put(heartRates)
        put(speedSeconds)
        put(speeds)
        put(elevations)
        put(path.map(\.latitude))
        put(path.map(\.longitude))
        put(pathSeconds)
        for splits in [kilometreSplits, mileSplits] {
            put(splits.map(\.seconds))
            put(splits.map { $0.heartRate.map(Double.init) })
            put(splits.map(\.partial))
        }
        return Data(out)
    }

    init?(stored data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 7, Array(bytes[0..<4]) == Self.magic else { return nil }
        hasHeartRate = bytes[4] == 1
        hasLocations = bytes[5] == 1
        hasElevation = bytes[6] == 1
        var index = 7
        func take() -> [Double?]? {
            guard bytes.count - index >= 4 else { return nil }
            let count = Int(bytes[index]) | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2]) << 16 | Int(bytes[index + 3]) << 24
            index += 4
            guard count <= (bytes.count - index) / 8 else { return nil }
            var values: [Double?] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                var bits: UInt64 = 0
                for shift in 0..<8 { bits |= UInt64(bytes[index + shift]) << (8 * shift) }
                index += 8
                let value = Double(bitPattern: bits)
                values.append(value.isNaN ? nil : value)
            }
            return values
        }
        guard let heartSeconds = take(), let heartRates = take(), let speedSeconds = take(), let speeds = take(),
            let elevations = take(), let latitudes = take(), let longitudes = take(), let pathSeconds = take(),
            let kmSeconds = take(), let kmRates = take(), let kmPartials = take(),
            let mileSeconds = take(), let mileRates = take(), let milePartials = take(),
            index == bytes.count, heartSeconds.count == heartRates.count, speedSeconds.count == speeds.count,
            elevations.isEmpty || elevations.count == speeds.count, latitudes.count == longitudes.count,
            pathSeconds.count == latitudes.count,
            kmSeconds.count == kmRates.count, kmSeconds.count == kmPartials.count,
            mileSeconds.count == mileRates.count, mileSeconds.count == milePartials.count
        else { return nil }
        self.heartSeconds = heartSeconds.map { $0 ?? 0 }
        self.heartRates = heartRates
        self.speedSeconds = speedSeconds.map { $0 ?? 0 }
        self.speeds = speeds
        self.elevations = elevations
        path = zip(latitudes, longitudes).map { Coordinate(latitude: $0 ?? .nan, longitude: $1 ?? .nan) }
        self.pathSeconds = pathSeconds.map { $0 ?? 0 }
        func splits(_ seconds: [Double?], _ rates: [Double?], _ partials: [Double?]) -> [Split] {
            seconds.indices.map { Split(seconds: seconds[$0] ?? 0, heartRate: rates[$0].flatMap { Int(exactly: $0) }, partial: partials[$0]) }
        }
        kilometreSplits = splits(kmSeconds, kmRates, kmPartials)
        mileSplits = splits(mileSeconds, mileRates, milePartials)
    }
}
