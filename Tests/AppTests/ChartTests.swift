@testable import App
import FieldhouseKit
import Foundation
import Testing

/// Charts come drawn twice: wide for a desktop, narrow with fewer labels for a phone (the
/// stylesheet shows one), so a phone neither shrinks the labels nor scrolls the chart sideways.
@Suite("Charts")
struct ChartTests {
    /// The drawings of one chart, in order, as (class, the texts along the bottom axis).
    private func drawings(_ svg: String) throws -> [(name: String, bottomLabels: [String])] {
        try svg.components(separatedBy: "</svg>").filter { $0.contains("<svg") }.map { drawing in
            let name = try #require(drawing.firstMatch(of: /class="chart (chart-[a-z]+)"/)?.1)
            let height = try #require(drawing.firstMatch(of: /viewBox="0 0 \d+ (\d+)"/)?.1)
            let bottom = "y=\"\(Int(height)! - 8).0\""
            let labels = drawing.matches(of: /<text x="[0-9.]+" (y="[0-9.]+") text-anchor="middle"[^>]*>([^<]*)<\/text>/)
                .filter { String($0.1) == bottom }.map { String($0.2) }
            return (String(name), labels)
        }
    }

    @Test func aChartIsDrawnWideAndNarrowAndTheNarrowOneHasFewerLabels() throws {
        // An hour's run, one value a minute.
        let seconds = (0...60).map { Double($0 * 60) }
        let line = try drawings(
            SVGChart.line(seconds: seconds, values: seconds.map { 120 + $0 / 100 }, label: "Heart rate", unit: "bpm", colour: "#b3261e"))
        #expect(line.map(\.name) == ["chart-wide", "chart-narrow"])
        #expect(line[0].bottomLabels == ["0:00", "10:00", "20:00", "30:00", "40:00", "50:00", "1:00"])
        #expect(line[1].bottomLabels == ["0:00", "30:00", "1:00"], "the whole hour, in fewer labels")

        // Twelve weeks of columns: the narrow drawing names every second week, the last one always.
        let weeks = (1...12).map { (label: "W\($0)", value: Double($0), text: "\($0) h") }
        let columns = try drawings(SVGChart.columns(weeks, label: "Hours a week", colour: "#0b6e4f"))
        #expect(columns.map(\.name) == ["chart-wide", "chart-narrow"])
        #expect(columns[0].bottomLabels == weeks.map(\.label))
        #expect(columns[1].bottomLabels == ["W2", "W4", "W6", "W8", "W10", "W12"])

        // A year of heart rate: a handful of dates on either drawing, not one every 30 days.
        let day: Int64 = 86_400_000, start: Int64 = 1_767_225_600_000
        let year = (0..<366).map { (t: start + Int64($0) * day, low: 50.0, high: 150.0, mean: 90.0) }
        let band = try drawings(
            SVGChart.band(from: start, to: start + 366 * day, buckets: year, zone: TimeZone(identifier: "UTC")!, label: "Heart rate", unit: "bpm"))
        #expect(band.map(\.name) == ["chart-wide", "chart-narrow"])
        #expect((4...7).contains(band[0].bottomLabels.count), "\(band[0].bottomLabels)")
        #expect((2...4).contains(band[1].bottomLabels.count), "\(band[1].bottomLabels)")

        // Nothing to draw is no chart at all, not two empty ones.
        #expect(SVGChart.line(seconds: [0], values: [1], label: "x", unit: "x", colour: "#000") == "")
    }

    /// A split never counts the time between two segments (a hidden stretch inside a privacy zone,
    /// or a gap between tracks): 2 km at 5 min a km with a 20-minute gap in the middle of the
    /// first kilometre reads 5:00 and 5:00, not 25:00.
    @Test func splitsLeaveOutTheTimeBetweenSegments() throws {
        // East along a parallel at 55.6761°: 0.0000159° of longitude is about 1 m there.
        let perMetre = 1.0 / (111_320 * cos(55.6761 * .pi / 180))
        var points: [TrackPoint] = []
        var time: Int64 = 1_700_000_000_000
        for metre in stride(from: 0, through: 2000, by: 10) {
            if metre == 500 { time += 20 * 60_000 } // the gap: 20 minutes, no distance
            points.append(TrackPoint(time: time, latitude: 55.6761, longitude: 12.5 + Double(metre) * perMetre))
            time += 3_000 // 10 m in 3 s: 5 min a km
        }
        let starts: Set<Int> = [50]
        let distance = WorkoutSummary.cumulativeDistance(points, segmentStarts: starts)
        let splits = WorkoutSeries.splits(points, located: points, distance: distance, starts: starts, length: 1000)
        #expect(splits.count == 2)
        #expect(splits.allSatisfy { abs($0.seconds - 300) < 10 }, "\(splits.map(\.seconds))")
    }

    /// A phone's drawing takes about half the points: each unbroken run keeps its ends and its
    /// peak, and a missing value still breaks the line where it did.
    @Test func thePhonesDrawingIsThinnedWithoutBridgingABreak() {
        let seconds = (0..<600).map { Double($0) * 6 }
        let values: [Double?] = seconds.indices.map { index in
            (300..<320).contains(index) ? nil : index == 150 ? 199 : 120 + Double(index % 7)
        }
        let (kept, keptValues) = SVGChart.thinned(seconds, values, to: 300)
        #expect((280...320).contains(kept.count) && kept.count == keptValues.count)
        #expect(kept.first == 0 && kept.last == seconds.last && zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
        #expect(keptValues.filter { $0 == nil }.count == 1 && keptValues.contains(199))
        let gap = try? #require(keptValues.firstIndex { $0 == nil })
        #expect(gap.map { kept[$0 - 1] == 299 * 6 && kept[$0 + 1] == 320 * 6 } == true)
        let narrow = SVGChart.line(seconds: seconds, values: values, label: "Heart rate", unit: "bpm", colour: "#b3261e")
        let drawings = narrow.components(separatedBy: "</svg>").filter { $0.contains("<svg") }
        let moves = drawings.map { $0.components(separatedBy: "L").count }
        #expect(drawings.count == 2 && moves[1] < moves[0] * 6 / 10)
    }
}
