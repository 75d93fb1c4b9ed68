import Foundation

/// Reads GPX 1.0 and 1.1: tracks (`trk`/`trkseg`/`trkpt`) with elevation, time and the Garmin
/// TrackPointExtension's heart rate and cadence become an activity; a file with only a planned
/// route (`rte`), or a track nobody timed, becomes a routing track.
public enum GPXReader {
    public static func read(_ bytes: [UInt8], now: Date = Date()) throws -> ActivityFileContent {
        var handler = Handler()
        try ActivityFile.scanXML(bytes, into: &handler)
        guard handler.sawGPX else { throw ActivityFileError.unknownType }
        if let problem = handler.problem { throw ActivityFileError.corrupt(problem) }

        var timed = 0
        for point in handler.points where point.time != nil { timed += 1 }
        if handler.points.isEmpty || timed * 2 < handler.points.count {
            // No timed track: a route, from the `rte` if there is one, else from the untimed track.
            let fromTrack = handler.routePoints.isEmpty
            let source = fromTrack ? handler.points.map { ($0.coordinate, $0.elevation) } : handler.routePoints
            guard source.count >= 2 else {
                throw ActivityFileError.noData(t("This GPX file has no track points with times and no route, so there is nothing to import."))
            }
            return .route(
                PlannedRoute(
                    name: handler.routeName ?? handler.trackName ?? handler.metadataName,
                    points: source.map(\.0), elevations: source.map(\.1),
                    segmentStarts: fromTrack ? handler.segmentStarts : handler.routeStarts))
        }
        var starts: Set<Int> = []
        var points: [TrackPoint] = []
        points.reserveCapacity(timed)
        let raw = handler.points
        handler.points = [] // one copy of a long track in memory at a time
        // Points without a time are left out (Fieldhouse does not invent times) and the rest imported;
        // a segment that began on a left-out point begins at its first timed one.
        var segmentPending = false
        for (index, point) in raw.enumerated() {
            if handler.segmentStarts.contains(index) && index > 0 { segmentPending = true }
            guard let time = point.time else { continue }
            if segmentPending && !points.isEmpty { starts.insert(points.count) }
            segmentPending = false
            points.append(
                TrackPoint(
                    time: time, latitude: point.coordinate.latitude, longitude: point.coordinate.longitude,
                    elevation: point.elevation, heartRate: point.heartRate, cadence: point.cadence, speed: point.speed))
        }
        var recording = ActivityRecording(
            format: .gpx, sport: handler.trackType.flatMap(WorkoutSport.init(fileValue:)),
            name: handler.trackName ?? handler.metadataName, points: points,
            segmentStarts: starts)
        if timed < raw.count {
            recording.notes.append("\(raw.count - timed) of the \(raw.count) track points had no time and were left out.")
        }
        recording.normalise(now: now)
        return .activity(recording)
    }

    private struct RawPoint {
        var coordinate: Coordinate
        var elevation: Double?
        var time: Int64?
        var heartRate: Int?
        var cadence: Int?
        var speed: Double?
    }

    private struct Handler: XMLHandler {
        var sawGPX = false
        var points: [RawPoint] = []
        var segmentStarts: Set<Int> = []
        var routePoints: [(Coordinate, Double?)] = []
        var routeStarts: Set<Int> = []
        var trackName: String?
        var trackType: String?
        var routeName: String?
        var metadataName: String?
        var problem: String?

        private var path: [String] = []
        private var current: RawPoint?

        mutating func start(_ name: String, attributes: [XMLAttribute]) throws {
            if path.isEmpty { sawGPX = name == "gpx" }
            path.append(name)
            switch name {
            case "trkseg", "trk":
                segmentStarts.insert(points.count)
            case "rte":
                routeStarts.insert(routePoints.count)
            case "trkpt", "rtept":
                var lat: Double?, lon: Double?
                for attribute in attributes {
                    if attribute.name == "lat" {
                        lat = attribute.value.number
                    } else if attribute.name == "lon" {
                        lon = attribute.value.number
                    }
                }
                let coordinate = Coordinate(latitude: lat ?? .nan, longitude: lon ?? .nan)
                guard coordinate.isValid else {
                    problem = problem ?? t("a point has no valid lat/lon (near point {number})", points.count + routePoints.count + 1)
                    current = nil
                    return
                }
                current = RawPoint(coordinate: coordinate)
            default:
                break
            }
        }

        mutating func end(_ name: String, text: XMLText) throws {
            defer { path.removeLast() }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch name {
            case "trkpt":
                if let point = current {
                    try ActivityFile.refuseMorePoints(than: points.count)
                    points.append(point)
                }
                current = nil
            case "rtept":
                if let point = current {
                    try ActivityFile.refuseMorePoints(than: routePoints.count)
                    routePoints.append((point.coordinate, point.elevation))
                }
                current = nil
            case "ele":
                // Routes have no `normalise`, so their elevations are checked here.
                if current != nil { current?.elevation = Plausible.keep(text.number, in: Plausible.elevation) }
            case "time":
                guard current != nil else { return }
                // GPX times are UTC; a few writers leave out the "Z".
                current?.time = text.withBytes { SampleTime.milliseconds(rfc3339: $0) } ?? SampleTime.milliseconds(rfc3339: text.string + "Z")
                if current?.time == nil { problem = problem ?? t("a point has an unreadable time \"{time}\"", text.string.prefix(40)) }
            case "hr", "heartrate":
                if current != nil, let value = text.number, (1...300).contains(value) { current?.heartRate = Int(value.rounded()) }
            case "cad", "cadence":
                if current != nil, let value = text.number, (0...300).contains(value) { current?.cadence = Int(value.rounded()) }
            case "speed":
                if current != nil, let value = text.number, value >= 0 { current?.speed = value }
            case "name":
                let value = text.string
                guard !value.isEmpty else { return }
                if parent == "trk", trackName == nil {
                    trackName = value
                } else if parent == "rte", routeName == nil {
                    routeName = value
                } else if parent == "metadata", metadataName == nil {
                    metadataName = value
                }
            case "type":
                if parent == "trk", trackType == nil { trackType = text.string }
            default:
                break
            }
        }
    }
}
