import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Heart-rate variability of a workout from the RR intervals a chest strap sends (`rr_intervals`):
/// RMSSD, and a Poincaré plot (each interval against the next) with its SD1 and SD2.
enum HeartRateVariability {
    /// What the workout page shows; `plot` is an SVG with its own accessible name, and the figures
    /// beside it are its text alternative.
    struct Drawing: Encodable, Sendable {
        let rmssd: String
        let sd1: String
        let sd2: String
        let beats: String
        let plot: String
    }

    struct Figures: Equatable {
        /// Root mean square of successive differences, in milliseconds.
        let rmssd: Double
        let sd1: Double
        let sd2: Double
        /// The successive pairs (RR_n, RR_n+1) that survived the artefact filter.
        let pairs: [(Double, Double)]

        static func == (a: Figures, b: Figures) -> Bool {
            a.rmssd == b.rmssd && a.sd1 == b.sd1 && a.sd2 == b.sd2 && a.pairs.elementsEqual(b.pairs) { $0 == $1 }
        }
    }

    /// Intervals outside this range (30 to 200 beats a minute) are a missed or an extra beat, not a heart.
    static let physiological = 300.0...2000.0
    /// A beat more than this share shorter or longer than the one before is an artefact (an ectopic
    /// beat or a strap losing contact); 20 % is the usual threshold (Malik's filter).
    static let largestChange = 0.2

    /// `rr`: intervals in milliseconds with their times, oldest first. A pair counts only when both
    /// beats are in the physiological range, the second follows the first within three seconds
    /// (no gap in the recording between them) and differs from it by at most `largestChange` of
    /// the first; anything else is dropped, and breaks the chain rather than being bridged, so one
    /// bad beat removes the two differences it takes part in. Nil under 20 pairs: too few to say.
    static func figures(_ rr: [(t: Int64, ms: Double)]) -> Figures? {
        var pairs: [(Double, Double)] = []
        for (a, b) in zip(rr, rr.dropFirst()) {
            guard physiological.contains(a.ms), physiological.contains(b.ms), b.t > a.t, b.t - a.t <= 3000,
                Swift.abs(b.ms - a.ms) <= largestChange * a.ms
            else { continue }
            pairs.append((a.ms, b.ms))
        }
        guard pairs.count >= 20 else { return nil }
        let count = Double(pairs.count)
        let rmssd = (pairs.reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) } / count).squareRoot()
        // SD1 and SD2: the spread across and along the line of identity (RR_n+1 = RR_n).
        func spread(_ values: [Double]) -> Double {
            let mean = values.reduce(0, +) / Double(values.count)
            return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
        }
        let sd1 = spread(pairs.map { ($0.1 - $0.0) / 2.0.squareRoot() })
        let sd2 = spread(pairs.map { ($0.1 + $0.0) / 2.0.squareRoot() })
        return Figures(rmssd: rmssd, sd1: sd1, sd2: sd2, pairs: pairs)
    }

    /// The RR intervals of a workout as the viewer may see them: the owner all in the workout's
    /// time; anyone else only those beside a heart-rate sample they see (`visible`: the part outside
    /// the owner's privacy zones, or the workout's own samples without the owner's overlapping
    /// workouts), the rule the heart-rate chart follows.
    static func load(_ workout: Workout, ownerView: Bool, visible: WorkoutTimeline?, on db: any Database) async throws -> Drawing? {
        guard let end = workout.endMS else { return nil }
        var rr = try await WorkoutTimeline.series(db.sql, "rr_intervals", ["ms"], user: workout.$user.id, from: workout.startMS, to: end)
            .compactMap { row in row.values[0].map { (t: row.t, ms: $0) } }
        guard rr.count >= 21 else { return nil }
        if !ownerView {
            var seen = visible
            if seen == nil, try await WorkoutTimeline.othersOverlapping(workout, on: db) {
                seen = try await WorkoutTimeline.load(workout, ownerView: false, on: db)
            }
            if let seen {
                let times = seen.points.filter { $0.heartRate != nil }.map(\.time)
                rr = rr.filter { near(times, $0.t, within: 5000) }
            }
        }
        guard let figures = figures(rr) else { return nil }
        func ms(_ value: Double) -> String { t("{number} ms", Format.number(value, decimals: 0)) }
        return Drawing(
            rmssd: ms(figures.rmssd), sd1: ms(figures.sd1), sd2: ms(figures.sd2), beats: Format.whole(Double(figures.pairs.count)),
            plot: poincare(figures))
    }

    /// Whether a time is within `within` milliseconds of one of `times` (sorted).
    static func near(_ times: [Int64], _ t: Int64, within: Int64) -> Bool {
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] < t { low = mid + 1 } else { high = mid }
        }
        return (low < times.count && times[low] - t <= within) || (low > 0 && t - times[low - 1] <= within)
    }

    /// RR_n across, RR_n+1 up, on a square, with the line of identity and the SD1/SD2 ellipse.
    /// Points closer than a pixel and a half are drawn once, so a long workout stays light.
    static func poincare(_ figures: Figures) -> String {
        let size = 300.0, pad = 44.0, top = 24.0, plot = size - pad - top
        let all = figures.pairs.flatMap { [$0.0, $0.1] }
        let low = ((all.min() ?? 300) / 100).rounded(.down) * 100, high = max(((all.max() ?? 2000) / 100).rounded(.up) * 100, low + 100)
        func x(_ v: Double) -> Double { pad + (v - low) / (high - low) * plot }
        func y(_ v: Double) -> Double { top + (1 - (v - low) / (high - low)) * plot }
        let label = t(
            "Poincaré plot of {count} successive heartbeat intervals, each against the next: SD1 {sd1}, SD2 {sd2}",
            Format.whole(Double(figures.pairs.count)), Format.number(figures.sd1, decimals: 0) + " ms", Format.number(figures.sd2, decimals: 0) + " ms")
        var out =
            "<svg class=\"chart poincare\" viewBox=\"0 0 \(Int(size)) \(Int(size))\" role=\"img\" aria-label=\"\(SVGMap.escape(label))\" xmlns=\"http://www.w3.org/2000/svg\"><title>\(SVGMap.escape(label))</title>"
        let step = (high - low) > 800 ? 200.0 : 100.0
        var tick = low
        while tick <= high {
            out += "<line x1=\"\(x(tick).tenths)\" x2=\"\(x(tick).tenths)\" y1=\"\(top)\" y2=\"\((top + plot).tenths)\" stroke=\"#eef1f4\"/>"
            out += "<line x1=\"\(pad.tenths)\" x2=\"\((pad + plot).tenths)\" y1=\"\(y(tick).tenths)\" y2=\"\(y(tick).tenths)\" stroke=\"#eef1f4\"/>"
            out += "<text x=\"\(x(tick).tenths)\" y=\"\(size - 8)\" text-anchor=\"middle\" font-size=\"12\" fill=\"#4a5560\">\(Int(tick))</text>"
            out += "<text x=\"\(pad - 4)\" y=\"\((y(tick) + 4).tenths)\" text-anchor=\"end\" font-size=\"12\" fill=\"#4a5560\">\(Int(tick))</text>"
            tick += step
        }
        out +=
            "<line x1=\"\(x(low).tenths)\" y1=\"\(y(low).tenths)\" x2=\"\(x(high).tenths)\" y2=\"\(y(high).tenths)\" stroke=\"#8a96a3\" stroke-dasharray=\"4 4\"/>"
        var seen = Set<Int>()
        var dots = ""
        for (a, b) in figures.pairs {
            let px = x(a), py = y(b)
            guard seen.insert(Int(px / 1.5) * 1000 + Int(py / 1.5)).inserted else { continue }
            dots += "M\(px.tenths) \(py.tenths)h0"
        }
        out += "<path d=\"\(dots)\" stroke=\"#b3261e\" stroke-opacity=\"0.55\" stroke-width=\"3\" stroke-linecap=\"round\" fill=\"none\"/>"
        let meanX = figures.pairs.reduce(0) { $0 + $1.0 } / Double(figures.pairs.count)
        let meanY = figures.pairs.reduce(0) { $0 + $1.1 } / Double(figures.pairs.count)
        let scale = plot / (high - low)
        out +=
            "<ellipse cx=\"\(x(meanX).tenths)\" cy=\"\(y(meanY).tenths)\" rx=\"\(max(figures.sd2 * scale, 1).tenths)\" ry=\"\(max(figures.sd1 * scale, 1).tenths)\" transform=\"rotate(-45 \(x(meanX).tenths) \(y(meanY).tenths))\" fill=\"none\" stroke=\"#17202a\" stroke-width=\"1.5\"/>"
        out += "<text x=\"\(pad)\" y=\"\(size - 22)\" font-size=\"12\" fill=\"#4a5560\">RRₙ (ms)</text>"
        out += "<text x=\"4\" y=\"13\" font-size=\"12\" fill=\"#4a5560\">RRₙ₊₁</text>"
        return out + "</svg>"
    }
}
