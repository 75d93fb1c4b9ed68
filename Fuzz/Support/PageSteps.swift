import FieldhouseKit
import Foundation

// What the server does with a file after reading it, for the harnesses: summarise it as an import
// does, then draw and format what the workout page shows (charts, map, numbers in both unit
// systems). A value a reader let through that a page cannot show traps here, as it would in a request.

func summariseAndDraw(_ recording: ActivityRecording) {
    let summary = WorkoutSummary.compute(
        points: recording.points, segmentStarts: recording.segmentStarts,
        sport: recording.sport ?? .running,
        profile: AthleteProfile(age: 30, sex: .female, weightKg: 60, maxHeartRate: 190, restingHeartRate: 55),
        device: recording.totals)
    drawPage(points: recording.points, summary: summary, laps: recording.laps)
}

func drawPage(points: [TrackPoint], summary: WorkoutSummary, laps: [DeviceTotals]) {
    for format in [Format(imperial: false, zone: TimeZone(identifier: "UTC")!), Format(imperial: true, zone: TimeZone(identifier: "Pacific/Kiritimati")!)] {
        var shown = [
            Format.duration(summary.elapsed), format.distance(summary.distance), format.speed(summary.maxSpeed),
            format.pace(summary.avgSpeed), format.elevation(summary.elevationGain),
        ]
        if let first = points.first { shown.append(format.when(first.time)) }
        for lap in laps { shown.append(format.distance(lap.distance)); shown.append(Format.duration(lap.elapsed ?? 0)) }
        guard let start = points.first?.time else { continue }
        let seconds = points.map { Double($0.time &- start) / 1000 }
        _ = SVGChart.line(
            seconds: seconds, values: points.map { $0.heartRate.map(Double.init) }, label: "hr", unit: "bpm", colour: "#000",
            bands: [SVGChart.Band(from: 120, to: 140, label: "Zone 3", fill: "#eee")])
        _ = SVGChart.line(seconds: seconds, values: points.map { $0.speed.map { $0 * 3.6 } }, label: "speed", unit: "km/h", colour: "#000")
        _ = SVGChart.line(seconds: seconds, values: points.map(\.elevation), label: "ele", unit: "m", colour: "#000", fill: true)
        _ = SVGChart.band(
            from: start, to: points.last!.time,
            buckets: points.compactMap { p in p.heartRate.map { (t: p.time, low: Double($0), high: Double($0), mean: Double($0)) } },
            zone: format.zone, label: "hr", unit: "bpm")
        let path = points.compactMap(\.coordinate).filter(\.isValid)
        // With tiles: the signed area and the zoomable layer's data (polylines, seconds) are drawn too.
        let pathSeconds = points.filter { $0.coordinate?.isValid ?? false }.map { Double($0.time &- start) / 1000 }
        _ = SVGMap(markers: [], tiles: MapTiles(token: { $0 }, route: "/tiles"), paths: [path], times: [pathSeconds], label: "route").svg
        _ = shown.joined()
    }
}
