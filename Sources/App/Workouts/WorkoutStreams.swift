import FieldhouseKit
import Vapor

/// A workout's samples as aligned arrays, one entry per moment of the main series (positions when
/// there are any, else heart rate, else cadence); other series give their nearest sample within
/// `alignment`, or null. Lower resolutions keep the moments LTTB picks on the most telling series.
struct WorkoutStreams: Content {
    enum Resolution: String, CaseIterable {
        case low, medium, high, full

        var points: Int? {
            switch self {
            case .low: 100
            case .medium: 1_000
            case .high: 10_000
            case .full: nil
            }
        }
    }

    static let keys = ["time", "latlng", "distance", "altitude", "heartrate", "cadence", "speed"]
    /// A strap's sample counts for a GPS fix up to this far away in time.
    static let alignment: Int64 = 2_500

    var time: [Double]?
    var latlng: [[Double]?]?
    var distance: [Double]?
    var altitude: [Double?]?
    var heartrate: [Int?]?
    var cadence: [Int?]?
    var speed: [Double?]?
    var resolution: String
    var original_size: Int

    init(timeline: WorkoutTimeline, workout: Workout, keys: Set<String>, resolution: Resolution) {
        let start = workout.startMS
        // Without the positions the summary left out as too fast for the sport (`SpeedSpikes`), so
        // the distance stream ends at the workout's distance.
        let cleaned = SpeedSpikes.clean(
            timeline.points, segmentStarts: workout.segmentStarts(in: timeline.points), sport: WorkoutSport(rawValue: workout.sport) ?? .other,
            legs: workout.legList)
        let all = cleaned.points
        let base: [TrackPoint]
        var baseStarts: Set<Int> = []
        if timeline.hasLocations {
            (base, baseStarts) = cleaned.located
        } else if timeline.hasHeartRate {
            base = all.filter { $0.heartRate != nil }
        } else {
            base = all.filter { $0.cadence != nil }
        }

        func nearest<T>(_ series: [(Int64, T)]) -> [T?] {
            var result: [T?] = []
            result.reserveCapacity(base.count)
            var j = 0
            for point in base {
                while j + 1 < series.count && abs(series[j + 1].0 - point.time) <= abs(series[j].0 - point.time) { j += 1 }
                if j < series.count, abs(series[j].0 - point.time) <= Self.alignment { result.append(series[j].1) } else { result.append(nil) }
            }
            return result
        }
        let hr: [Int?] = timeline.hasHeartRate ? nearest(all.compactMap { p in p.heartRate.map { (p.time, $0) } }) : []
        let cad: [Int?] = timeline.hasCadence ? nearest(all.compactMap { p in p.cadence.map { (p.time, $0) } }) : []
        let times = base.map { Double($0.time - start) / 1000 }
        let cumulative = timeline.hasLocations ? WorkoutSummary.cumulativeDistance(base, segmentStarts: baseStarts) : []
        var speeds: [Double?] = []
        if timeline.hasLocations {
            speeds.reserveCapacity(base.count)
            var k = 0
            for i in base.indices {
                if let device = base[i].speed { speeds.append(device); continue }
                while k + 1 < i && base[i].time - base[k + 1].time >= WorkoutSummary.speedWindow { k += 1 }
                let span = Double(base[i].time - base[k].time) / 1000
                speeds.append(span > 0 ? (cumulative[i] - cumulative[k]) / span : 0)
            }
        }

        // Pick the moments to keep.
        var indexes = Array(base.indices)
        if let limit = resolution.points, base.count > limit {
            var carried = 0.0
            let y: [Double] =
                timeline.hasHeartRate
                ? hr.map { value in
                    if let value { carried = Double(value) }; return carried
                }
                : timeline.hasLocations
                    ? speeds.map { $0 ?? 0 }
                    : cad.map { Double($0 ?? 0) }
            indexes = LTTB.indexes(x: times, y: y, threshold: limit)
        }
        func pick<T>(_ values: [T]) -> [T] { indexes.map { values[$0] } }
        func round(_ value: Double, _ places: Double) -> Double { (value * places).rounded() / places }

        original_size = base.count
        self.resolution = resolution.rawValue
        if keys.contains("time") { time = pick(times).map { round($0, 1000) } }
        if timeline.hasLocations {
            if keys.contains("latlng") { latlng = pick(base).map { p in p.coordinate.map { [round($0.latitude, 1e7), round($0.longitude, 1e7)] } } }
            if keys.contains("distance") { distance = pick(cumulative).map { round($0, 100) } }
            if keys.contains("speed") { speed = pick(speeds).map { $0.map { round($0, 1000) } } }
        }
        if keys.contains("altitude") && timeline.hasElevation { altitude = pick(base).map { $0.elevation.map { round($0, 10) } } }
        if keys.contains("heartrate") && timeline.hasHeartRate { heartrate = pick(hr) }
        if keys.contains("cadence") && timeline.hasCadence { cadence = pick(cad) }
    }
}
