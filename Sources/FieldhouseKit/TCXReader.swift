import Foundation

/// Reads Garmin Training Center (TCX) activities: the first `Activity`, its laps with the totals the
/// device wrote, and every trackpoint (position, altitude, distance, heart rate, cadence, and speed
/// from the ActivityExtension).
public enum TCXReader {
    public static func read(_ bytes: [UInt8], now: Date = Date()) throws -> ActivityRecording {
        var handler = Handler()
        try ActivityFile.scanXML(bytes, into: &handler)
        guard handler.sawRoot else { throw ActivityFileError.unknownType }
        if let problem = handler.problem { throw ActivityFileError.corrupt(problem) }
        guard handler.activities > 0 else {
            throw ActivityFileError.notActivity(t("this TCX file holds no Activity (courses and workouts plans are not recordings)"))
        }
        guard !handler.points.isEmpty else {
            throw ActivityFileError.noData(t("This TCX activity has no trackpoints with times, so there is nothing to import."))
        }
        var laps = handler.laps
        // Checked before adding up, so the laps' totals can never overflow or make an infinite mean.
        var dropped = 0
        for index in laps.indices { dropped += laps[index].keepPlausible() }
        var totals = DeviceTotals(start: laps.first?.start)
        func sum<T: AdditiveArithmetic>(_ values: [T?]) -> T? {
            let present = values.compactMap { $0 }
            return present.isEmpty ? nil : present.reduce(.zero, +)
        }
        totals.elapsed = sum(laps.map(\.elapsed))
        totals.distance = sum(laps.map(\.distance))
        totals.calories = sum(laps.map(\.calories))
        totals.maximumHeartRate = laps.compactMap(\.maximumHeartRate).max()
        // The activity's mean heart rate is the laps' means weighted by their durations.
        let weighted = laps.compactMap { lap in lap.averageHeartRate.flatMap { hr in lap.elapsed.map { (Double(hr), $0) } } }
        let weight = weighted.map(\.1).reduce(0, +)
        if weight > 0 { totals.averageHeartRate = ActivityFile.whole(weighted.map { $0.0 * $0.1 }.reduce(0, +) / weight) }

        var recording = ActivityRecording(
            format: .tcx, sport: handler.sport.flatMap(WorkoutSport.init(fileValue:)),
            name: handler.notes, points: handler.points, segmentStarts: handler.segmentStarts,
            laps: laps, totals: totals)
        recording.droppedReadings = dropped
        recording.normalise(now: now)
        return recording
    }

    private struct Handler: XMLHandler {
        var sawRoot = false
        var activities = 0
        var sport: String?
        var notes: String?
        var points: [TrackPoint] = []
        var segmentStarts: Set<Int> = []
        var laps: [DeviceTotals] = []
        var problem: String?

        private var path: [String] = []
        private var point: TrackPoint?
        private var lat: Double?
        private var lon: Double?

        /// Only the first activity is read; a file with several is rare and would mix workouts. Kept as
        /// a flag (set and cleared at the Activity's own depth) rather than searched for on every tag.
        private var inFirstActivity = false
        private var activityDepth = 0

        mutating func start(_ name: String, attributes: [XMLAttribute]) throws {
            if path.isEmpty { sawRoot = name == "TrainingCenterDatabase" }
            path.append(name)
            switch name {
            case "Activity":
                activities += 1
                if activities == 1 {
                    sport = attributes.first { $0.name == "Sport" }?.value.string
                    inFirstActivity = true
                    activityDepth = path.count
                }
            case "Lap" where inFirstActivity:
                try ActivityFile.refuseMoreLaps(than: laps.count)
                let start = attributes.first { $0.name == "StartTime" }.flatMap { $0.value.withBytes { SampleTime.milliseconds(rfc3339: $0) } }
                laps.append(DeviceTotals(start: start))
            case "Track" where inFirstActivity:
                segmentStarts.insert(points.count)
            case "Trackpoint" where inFirstActivity:
                point = TrackPoint(time: Int64.min)
                lat = nil
                lon = nil
            default:
                break
            }
        }

        mutating func end(_ name: String, text: XMLText) throws {
            defer {
                if inFirstActivity && name == "Activity" && path.count == activityDepth { inFirstActivity = false }
                path.removeLast()
            }
            guard inFirstActivity else { return }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            let grandparent = path.count >= 3 ? path[path.count - 3] : ""
            let value = text.number
            if var current = point {
                switch name {
                case "Trackpoint":
                    if let lat, let lon {
                        let coordinate = Coordinate(latitude: lat, longitude: lon)
                        if coordinate.isValid {
                            current.latitude = lat; current.longitude = lon
                        } else {
                            problem = problem ?? t("trackpoint {number} has an impossible position", points.count + 1)
                        }
                    }
                    // Trackpoints without a time carry nothing that can be placed; Garmin writes none.
                    if current.time != Int64.min {
                        try ActivityFile.refuseMorePoints(than: points.count)
                        points.append(current)
                    }
                    point = nil
                    return
                case "Time":
                    if let time = text.withBytes({ SampleTime.milliseconds(rfc3339: $0) }) {
                        current.time = time
                    } else {
                        problem = problem ?? t("trackpoint {number} has an unreadable time", points.count + 1)
                    }
                case "LatitudeDegrees": lat = value
                case "LongitudeDegrees": lon = value
                case "AltitudeMeters": current.elevation = value
                case "DistanceMeters": current.distance = value.flatMap { $0 >= 0 ? $0 : nil }
                case "Value" where parent == "HeartRateBpm":
                    if let value, (1...300).contains(value) { current.heartRate = Int(value.rounded()) }
                case "Cadence", "RunCadence":
                    if let value, (0...300).contains(value) { current.cadence = Int(value.rounded()) }
                case "Speed":
                    if let value, value >= 0 { current.speed = value }
                default:
                    break
                }
                point = current
                return
            }
            guard !laps.isEmpty else {
                if name == "Notes", parent == "Activity" {
                    let trimmed = text.string.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !trimmed.isEmpty { notes = trimmed }
                }
                return
            }
            // Lap totals are direct children of Lap (heart rates one level deeper).
            switch name {
            case "TotalTimeSeconds" where parent == "Lap": laps[laps.count - 1].elapsed = value
            case "DistanceMeters" where parent == "Lap": laps[laps.count - 1].distance = value
            case "Calories" where parent == "Lap": laps[laps.count - 1].calories = ActivityFile.whole(value)
            case "Value" where parent == "AverageHeartRateBpm" && grandparent == "Lap":
                laps[laps.count - 1].averageHeartRate = ActivityFile.whole(value)
            case "Value" where parent == "MaximumHeartRateBpm" && grandparent == "Lap":
                laps[laps.count - 1].maximumHeartRate = ActivityFile.whole(value)
            case "Notes" where parent == "Activity":
                let trimmed = text.string.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { notes = trimmed }
            default:
                break
            }
        }
    }
}
