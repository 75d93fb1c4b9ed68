import FieldhouseKit

/// A workout's track as files: the `.gpx`/`.csv` downloads of its page and the account export.
enum WorkoutExport {
    /// GPX 1.1, with heart rate, cadence and the device's speed in Garmin's TrackPointExtension v2,
    /// so a re-import computes the same numbers. A new `<trkseg>` starts at each of `segmentStarts`.
    static func gpx(_ workout: Workout, points: [TrackPoint], segmentStarts: Set<Int>) -> String {
        var body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Fieldhouse" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
            <trk><name>\(SVGMap.escape(workout.name))</name><type>\(SVGMap.escape(workout.sport))</type><trkseg>\n
            """
        for (index, point) in points.enumerated() {
            guard let lat = point.latitude, let lon = point.longitude else { continue }
            if segmentStarts.contains(index) && index > 0 { body += "</trkseg><trkseg>\n" }
            body += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\">"
            if let ele = point.elevation { body += "<ele>\(ele)</ele>" }
            body += "<time>\(SampleTime.rfc3339(milliseconds: point.time))</time>"
            let hr = point.heartRate, cad = point.cadence, speed = point.speed
            if hr != nil || cad != nil || speed != nil {
                body += "<extensions><gpxtpx:TrackPointExtension>"
                if let hr { body += "<gpxtpx:hr>\(hr)</gpxtpx:hr>" }
                if let cad { body += "<gpxtpx:cad>\(cad)</gpxtpx:cad>" }
                if let speed { body += "<gpxtpx:speed>\(speed)</gpxtpx:speed>" }
                body += "</gpxtpx:TrackPointExtension></extensions>"
            }
            body += "</trkpt>\n"
        }
        return body + "</trkseg></trk></gpx>\n"
    }

    static func csv(_ points: [TrackPoint]) -> String {
        var body = "time,latitude,longitude,elevation_m,heart_rate_bpm,cadence\n"
        func text(_ value: Double?) -> String { value.map { String($0) } ?? "" }
        func text(_ value: Int?) -> String { value.map { String($0) } ?? "" }
        for point in points {
            let fields: [String] = [
                SampleTime.rfc3339(milliseconds: point.time), text(point.latitude), text(point.longitude),
                text(point.elevation), text(point.heartRate), text(point.cadence),
            ]
            body += fields.joined(separator: ",") + "\n"
        }
        return body
    }
}
