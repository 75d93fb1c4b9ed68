import FieldhouseKit
import Foundation

/// Charts drawn as SVG on the server: a line over time with labelled axes (and optional labelled
/// bands, e.g. heart-rate zones), and horizontal bars. They scale with the page (viewBox), carry
/// an accessible name, and every band and bar has a text label, so colour is never the only sign.
enum SVGChart {
    struct Band {
        let from: Double
        let to: Double
        let label: String
        let fill: String
    }

    /// What the horizontal axis of a profile along a route counts in.
    enum DistanceAxis { case kilometres, miles }

    /// Every chart is drawn twice, wide for a desktop and narrow with fewer ticks for a phone, and
    /// the stylesheet shows the one that fits (`.chart-wide`, `.chart-narrow` in app.css): one
    /// drawing scaled to a phone shrank its labels below reading size, and a wide one there had to
    /// scroll sideways, hiding the end of the range.
    struct Canvas {
        let width: Double
        /// About how many labels the time (or distance) axis takes.
        let axisLabels: Double
        let name: String

        static let wide = Canvas(width: 600, axisLabels: 6, name: "chart-wide")
        static let narrow = Canvas(width: 340, axisLabels: 3, name: "chart-narrow")

        func open(height: Double, label: String) -> String {
            "<svg class=\"chart \(name)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(SVGMap.escape(label))\" xmlns=\"http://www.w3.org/2000/svg\"><title>\(SVGMap.escape(label))</title>"
        }
    }

    private static func twice(data: String? = nil, _ draw: (Canvas) -> String) -> String {
        let wide = draw(.wide)
        guard !wide.isEmpty else { return "" }
        guard let data else { return wide + draw(.narrow) }
        return "<div class=\"chart-read\" data-chart='\(data)'>" + wide + draw(.narrow) + "</div>"
    }

    /// How the reading layer (Public/js/charts.js) writes a value of a line: a number with its
    /// decimals and unit, or a pace (the values are then minus seconds per kilometre or mile, so
    /// that faster is higher up, and the axis reads "m:ss").
    enum Reading: Sendable {
        case number(decimals: Int)
        case pace
    }

    /// The data a chart is drawn from, for the reading layer: written once per chart (not per
    /// drawing) in the wrapper's `data-chart` attribute, as JSON in single quotes. Keys are short
    /// because they go out with every page: `k` kind, `x`/`y` the drawn points, `x0`–`x1` and
    /// `y0`–`y1` the plot's domains, `b` the plot box (left, right, top, bottom, height) in the
    /// viewBox, `u` unit, `n` name, `link` a group of charts that share their x (a workout's
    /// elapsed seconds: `"workout"`). docs/ARCHITECTURE.md ("Charts you can read") has the rest.
    /// What a chart is drawn from, for the reading layer (`AttributeJSON`).
    struct ChartData {
        private var object = AttributeJSON()

        init(kind: String, name: String, box: (left: Double, right: Double, top: Double, bottom: Double, height: Double)) {
            add("k", Self.string(kind))
            add("n", Self.string(name))
            add("b", "[\([box.left, box.right, box.top, box.bottom, box.height].map(\.tenths).joined(separator: ","))]")
        }

        mutating func add(_ key: String, _ json: String) { object.add(key, json) }
        mutating func add(_ key: String, numbers: [Double?]) { object.add(key, numbers: numbers) }
        mutating func add(_ key: String, strings: [String]) { object.add(key, strings: strings) }

        var json: String { object.json }

        static func number(_ value: Double) -> String { AttributeJSON.number(value) }
        static func string(_ text: String) -> String { AttributeJSON.string(text) }
    }

    /// The `link` of the charts whose x is a workout's elapsed seconds: the reading layer draws its
    /// line across all of them and tells the map (`fieldhouse:chart-point`).
    static let workoutLink = "workout"

    static let height = 220.0
    private static let left = 46.0, right = 10.0, top = 24.0, bottom = 26.0

    /// A line of `values` over `seconds`; nil values and pauses (a gap of over a minute, or of
    /// several times the usual spacing once thinned) break the line rather than bridge it.
    /// `also` draws a second, dashed series on the same axes; `firstDay` labels the time axis with
    /// dates counted from that day rather than on a clock.
    static func line(
        seconds: [Double], values: [Double?], label: String, unit: String, colour: String,
        bands: [Band] = [], fill: Bool = false, also: (values: [Double?], colour: String)? = nil, firstDay: CalendarDate? = nil,
        distanceAxis: DistanceAxis? = nil, reading: Reading = .number(decimals: 0), link: String? = nil
    ) -> String {
        guard let domain = lineDomain(seconds: seconds, values: values, also: also?.values, bands: bands, clockTicks: reading.isPace) else { return "" }
        var data = ChartData(kind: "line", name: label, box: (left, right, top, bottom, height))
        data.add("x", numbers: seconds)
        data.add("y", numbers: values)
        if let also { data.add("y2", numbers: also.values) }
        data.add("x0", "0")
        data.add("x1", ChartData.number(domain.end))
        data.add("y0", ChartData.number(domain.minY))
        data.add("y1", ChartData.number(domain.maxY))
        data.add("u", ChartData.string(unit))
        switch reading {
        case .number(let decimals): data.add("d", String(decimals))
        case .pace: data.add("f", ChartData.string("pace"))
        }
        if let firstDay { data.add("t", ChartData.string("day")); data.add("day", ChartData.string(firstDay.description)) }
        if let distanceAxis { data.add("t", ChartData.string(distanceAxis == .miles ? "mi" : "km")) }
        if let link { data.add("link", ChartData.string(link)) }
        return twice(data: data.json) { canvas in
            // A phone's drawing is 340 units wide: half the points draw the same line, in half the bytes
            // (the reading layer reads, and redraws a zoomed range from, the carried data).
            let (seconds, values) = canvas.name == Canvas.narrow.name && also == nil ? thinned(seconds, values, to: 300) : (seconds, values)
            return line(
                canvas, domain: domain, seconds: seconds, values: values, label: label, unit: unit, colour: colour, bands: bands, fill: fill,
                also: also, firstDay: firstDay, distanceAxis: distanceAxis, clockTicks: reading.isPace)
        }
    }

    /// The axes of a line: its time span and a value range with a little room, on round numbers
    /// (on round minutes and seconds for a pace). Nil when there is nothing drawable.
    private static func lineDomain(seconds: [Double], values: [Double?], also: [Double?]?, bands: [Band], clockTicks: Bool) -> (
        end: Double, minY: Double, maxY: Double, step: Double
    )? {
        let present = values.compactMap { $0 } + (also?.compactMap { $0 } ?? [])
        guard seconds.count == values.count, seconds.count >= 2, let low = present.min(), let high = present.max(),
            let end = seconds.last, end > 0, Self.drawable(low), Self.drawable(high), Self.drawable(end)
        else { return nil }
        let span = max(high - low, 1)
        let step = clockTicks ? niceTimeStep(span / 4, from: [5, 10, 15, 30, 60, 120, 300, 600]) : niceStep(span / 4)
        var minY = (low / step).rounded(.down) * step
        var maxY = (high / step).rounded(.up) * step
        if let bandLow = bands.map(\.from).min(), bandLow < minY, bandLow > low - span { minY = max(0, (bandLow / step).rounded(.down) * step) }
        if maxY == minY { maxY = minY + step }
        return (end, minY, maxY, step)
    }

    private static func line(
        _ canvas: Canvas, domain: (end: Double, minY: Double, maxY: Double, step: Double), seconds: [Double], values: [Double?], label: String,
        unit: String, colour: String, bands: [Band], fill: Bool, also: (values: [Double?], colour: String)?, firstDay: CalendarDate?,
        distanceAxis: DistanceAxis?, clockTicks: Bool
    ) -> String {
        let width = canvas.width
        let (end, minY, maxY, step) = domain
        let plotW = width - left - right, plotH = height - top - bottom
        func x(_ s: Double) -> Double { left + s / end * plotW }
        func y(_ v: Double) -> Double { top + (1 - (v - minY) / (maxY - minY)) * plotH }

        var out = canvas.open(height: height, label: label)
        for band in bands {
            let y1 = y(min(max(band.to, minY), maxY)), y2 = y(min(max(band.from, minY), maxY))
            guard y2 - y1 > 1 else { continue }
            out += "<rect x=\"\(n(left))\" y=\"\(n(y1))\" width=\"\(n(plotW))\" height=\"\(n(y2 - y1))\" fill=\"\(band.fill)\"/>"
            if y2 - y1 >= 11 {
                out +=
                    "<text x=\"\(n(width - right - 4))\" y=\"\(n(y1 + 11))\" text-anchor=\"end\" font-size=\"13\" fill=\"#3b4650\">\(SVGMap.escape(band.label))</text>"
            }
        }
        for tick in ticks(from: minY, to: maxY, step: step) {
            out += "<line x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(y(tick)))\" y2=\"\(n(y(tick)))\" stroke=\"#d8dee4\"/>"
            let text = clockTicks ? clock(-tick) : format(tick, step)
            out += "<text x=\"\(n(left - 6))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\" font-size=\"13\" fill=\"#4a5560\">\(text)</text>"
        }
        // Along a route the axis counts distance (the values of `seconds` are then metres).
        let unitLength = distanceAxis.map { $0 == .miles ? Format.metresPerMile : 1000 } ?? 1
        let timeStep =
            distanceAxis != nil
            ? niceStep(end / unitLength / canvas.axisLabels) * unitLength
            : firstDay != nil
                ? max(7, (end / 86_400 / canvas.axisLabels).rounded(.up)) * 86_400 : niceTimeStep(end / canvas.axisLabels)
        var t = 0.0
        while t <= end {
            let text =
                distanceAxis.map { axis in format(t / unitLength, timeStep / unitLength) + (axis == .miles ? " mi" : " km") }
                ?? firstDay.map {
                    Format.dayAndMonth($0.adding(days: Int(t / 86_400)))
                } ?? clock(t)
            out +=
                "<text x=\"\(n(x(t)))\" y=\"\(n(height - 8))\" text-anchor=\"middle\" font-size=\"13\" fill=\"#4a5560\" class=\"cx\">\(text)</text>"
            t += timeStep
        }
        out += "<text x=\"4\" y=\"14\" font-size=\"13\" fill=\"#4a5560\">\(SVGMap.escape(unit))</text>"
        // The line, broken where values are missing or the recording paused.
        let pause = max(60, 5 * end / Double(seconds.count))
        var path = ""
        var drawing = false
        var previous = -Double.infinity
        for (s, value) in zip(seconds, values) {
            guard let value else { drawing = false; continue }
            // A filled profile stays whole: its area would not close across a break.
            if !fill && s - previous > pause { drawing = false }
            path += (drawing ? "L" : "M") + n(x(s)) + " " + n(y(value))
            drawing = true
            previous = s
        }
        if fill, let first = seconds.first {
            out +=
                "<path d=\"\(path)L\(n(x(end))) \(n(y(minY)))L\(n(x(first))) \(n(y(minY)))Z\" class=\"cf\" fill=\"\(colour)\" fill-opacity=\"0.15\" stroke=\"none\"/>"
        }
        out +=
            "<path class=\"cl\" d=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.6\" stroke-linejoin=\"round\" vector-effect=\"non-scaling-stroke\"/>"
        if let also {
            var second = ""
            for (index, (s, value)) in zip(seconds, also.values).enumerated() {
                guard let value else { continue }
                second += (second.isEmpty || also.values[max(index - 1, 0)] == nil ? "M" : "L") + n(x(s)) + " " + n(y(value))
            }
            out +=
                "<path class=\"c2\" d=\"\(second)\" fill=\"none\" stroke=\"\(also.colour)\" stroke-width=\"1.6\" stroke-dasharray=\"6 4\" vector-effect=\"non-scaling-stroke\"/>"
        }
        return out + "</svg>"
    }

    /// Horizontal bars with their labels and values written out.
    static func bars(_ items: [(label: String, value: Double, text: String, fill: String)], label: String) -> String {
        twice { bars($0, items, label: label) }
    }

    private static func bars(_ canvas: Canvas, _ items: [(label: String, value: Double, text: String, fill: String)], label: String) -> String {
        guard let largest = items.map(\.value).max(), largest > 0 else { return "" }
        let width = canvas.width
        let row = 28.0, labelW = width < 500 ? 120.0 : 165.0, valueW = width < 500 ? 122.0 : 132.0 // "1:15:00 · 100 %" whole
        let h = row * Double(items.count) + 4
        var out = canvas.open(height: h, label: label)
        for (index, item) in items.enumerated() {
            let y = 2 + Double(index) * row
            let w = (width - labelW - valueW) * item.value / largest
            out += "<text x=\"0\" y=\"\(n(y + 17))\" font-size=\"13\" fill=\"#17202a\">\(SVGMap.escape(item.label))</text>"
            out += "<rect x=\"\(n(labelW))\" y=\"\(n(y + 4))\" width=\"\(n(max(w, 1)))\" height=\"18\" rx=\"3\" fill=\"\(item.fill)\"/>"
            out += "<text x=\"\(n(labelW + max(w, 1) + 6))\" y=\"\(n(y + 17))\" font-size=\"13\" fill=\"#17202a\">\(SVGMap.escape(item.text))</text>"
        }
        return out + "</svg>"
    }

    /// A min–max band with a mean line over absolute time (continuous heart rate). Axis labels
    /// follow the span: clock times within two days, dates beyond.
    static func band(
        from start: Int64, to end: Int64, buckets: [(t: Int64, low: Double, high: Double, mean: Double)],
        zone: TimeZone, label: String, unit: String
    ) -> String {
        var data = ChartData(kind: "band", name: label, box: (left, right, top, bottom, height))
        if end > start, let low = buckets.map(\.low).min(), let high = buckets.map(\.high).max(), drawable(low), drawable(high) {
            let (minY, maxY, _) = bandDomain(low: low, high: high)
            // Seconds from `s` (the start, in milliseconds), so the numbers stay short.
            data.add("s", String(start))
            data.add("x", numbers: buckets.map { Double($0.t - start) / 1000 })
            data.add("y", numbers: buckets.map(\.mean))
            data.add("lo", numbers: buckets.map(\.low))
            data.add("hi", numbers: buckets.map(\.high))
            data.add("x0", "0")
            data.add("x1", ChartData.number(Double(end - start) / 1000))
            data.add("y0", ChartData.number(minY))
            data.add("y1", ChartData.number(maxY))
            data.add("u", ChartData.string(unit))
            data.add("d", "0")
            data.add("z", ChartData.string(zone.identifier))
            // The reader's clock, as WallClock writes the axis: "h12" when they chose "7:30 pm".
            data.add("c", ChartData.string(ClockStyle.current == .twelveHour ? "h12" : "h23"))
        }
        return twice(data: data.json) { band($0, from: start, to: end, buckets: buckets, zone: zone, label: label, unit: unit) }
    }

    private static func bandDomain(low: Double, high: Double) -> (minY: Double, maxY: Double, step: Double) {
        let step = niceStep(max(high - low, 10) / 4)
        let minY = (low / step).rounded(.down) * step
        return (minY, max((high / step).rounded(.up) * step, minY + step), step)
    }

    private static func band(
        _ canvas: Canvas, from start: Int64, to end: Int64, buckets: [(t: Int64, low: Double, high: Double, mean: Double)],
        zone: TimeZone, label: String, unit: String
    ) -> String {
        let width = canvas.width
        guard end > start, let low = buckets.map(\.low).min(), let high = buckets.map(\.high).max(),
            drawable(low), drawable(high), end - start < 400 * 86_400_000
        else { return "" }
        let (minY, maxY, step) = bandDomain(low: low, high: high)
        let plotW = width - left - right, plotH = height - top - bottom
        func x(_ t: Int64) -> Double { left + Double(t - start) / Double(end - start) * plotW }
        func y(_ v: Double) -> Double { top + (1 - (v - minY) / (maxY - minY)) * plotH }
        var out = canvas.open(height: height, label: label)
        for tick in ticks(from: minY, to: maxY, step: step) {
            out += "<line x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(y(tick)))\" y2=\"\(n(y(tick)))\" stroke=\"#d8dee4\"/>"
            out += "<text x=\"\(n(left - 6))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\" font-size=\"13\" fill=\"#4a5560\">\(format(tick, step))</text>"
        }
        out += "<text x=\"4\" y=\"14\" font-size=\"13\" fill=\"#4a5560\">\(SVGMap.escape(unit))</text>"
        // Time ticks on round local times.
        let span = Double(end - start) / 1000
        let tickSeconds: Double =
            [600.0, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800, 1_209_600]
            .first { span / $0 <= canvas.axisLabels } ?? max(1, (span / canvas.axisLabels / 2_592_000).rounded(.up)) * 2_592_000
        let offset = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start) / 1000)))
        var t = ((Double(start) / 1000 + offset) / tickSeconds).rounded(.up) * tickSeconds - offset
        while t * 1000 <= Double(end) {
            let clock = WallClock(Date(timeIntervalSince1970: t), zone: zone)
            let text = tickSeconds < 86_400 ? clock.clock : Format.dayAndMonth(day: clock.day, month: clock.month)
            let px = x(Int64(t * 1000))
            out += "<line x1=\"\(n(px))\" x2=\"\(n(px))\" y1=\"\(n(top))\" y2=\"\(n(top + plotH))\" stroke=\"#eef1f4\"/>"
            out += "<text x=\"\(n(px))\" y=\"\(n(height - 8))\" text-anchor=\"middle\" font-size=\"13\" fill=\"#4a5560\">\(text)</text>"
            t += tickSeconds
        }
        // The band: upper edge left to right, lower edge back; broken where there is no data.
        let gap = Int64(Double(end - start) / 100)
        var runs: [[(t: Int64, low: Double, high: Double, mean: Double)]] = [[]]
        for bucket in buckets {
            if let last = runs[runs.count - 1].last, bucket.t - last.t > max(gap, 180_000) { runs.append([]) }
            runs[runs.count - 1].append(bucket)
        }
        for run in runs where !run.isEmpty {
            var d = "M" + run.map { n(x($0.t)) + " " + n(y($0.high)) }.joined(separator: "L")
            d += "L" + run.reversed().map { n(x($0.t)) + " " + n(y($0.low)) }.joined(separator: "L") + "Z"
            out += "<path d=\"\(d)\" fill=\"#b3261e\" fill-opacity=\"0.18\" stroke=\"none\"/>"
            out +=
                "<path d=\"M" + run.map { n(x($0.t)) + " " + n(y($0.mean)) }.joined(separator: "L")
                + "\" fill=\"none\" stroke=\"#b3261e\" stroke-width=\"1.6\" vector-effect=\"non-scaling-stroke\"/>"
        }
        return out + "</svg>"
    }

    /// Vertical bars, one per period, each with its label under it and its value over it.
    static func columns(_ items: [(label: String, value: Double, text: String)], label: String, colour: String) -> String {
        var data = ChartData(kind: "cols", name: label, box: (4, 4, top + 16, bottom, height))
        data.add("l", strings: items.map(\.label))
        data.add("v", strings: items.map(\.text))
        data.add("y", numbers: items.map(\.value))
        return twice(data: data.json) { columns($0, items, label: label, colour: colour) }
    }

    private static func columns(_ canvas: Canvas, _ items: [(label: String, value: Double, text: String)], label: String, colour: String) -> String {
        guard !items.isEmpty else { return "" }
        let width = canvas.width
        let largest = max(items.map(\.value).max() ?? 0, 1e-9)
        let plotH = height - top - bottom - 16
        let slot = (width - 8) / Double(items.count)
        // Labels that would run into each other are written on every second (third…) column
        // counted from the last; each column still names itself in its title.
        let every = max(1, Int((44 / slot).rounded(.up)))
        var out = canvas.open(height: height, label: label)
        out += "<line x1=\"4\" x2=\"\(n(width - 4))\" y1=\"\(n(top + 16 + plotH))\" y2=\"\(n(top + 16 + plotH))\" stroke=\"#8a96a3\"/>"
        for (index, item) in items.enumerated() {
            let h = plotH * item.value / largest
            let x = 4 + Double(index) * slot
            let y = top + 16 + plotH - h
            out += "<g><title>\(SVGMap.escape(item.label)): \(SVGMap.escape(item.text))</title>"
            out += "<rect x=\"\(n(x + slot * 0.15))\" y=\"\(n(y))\" width=\"\(n(slot * 0.7))\" height=\"\(n(max(h, 0)))\" rx=\"2\" fill=\"\(colour)\"/>"
            if item.value > 0, slot >= 40 || (items.count - 1 - index) % every == 0 {
                out +=
                    "<text x=\"\(n(x + slot / 2))\" y=\"\(n(y - 4))\" text-anchor=\"middle\" font-size=\"12\" fill=\"#17202a\">\(SVGMap.escape(item.text))</text>"
            }
            if (items.count - 1 - index) % every == 0 {
                out +=
                    "<text x=\"\(n(x + slot / 2))\" y=\"\(n(height - 8))\" text-anchor=\"middle\" font-size=\"12\" fill=\"#4a5560\">\(SVGMap.escape(item.label))</text>"
            }
            out += "</g>"
        }
        return out + "</svg>"
    }

    /// Whether a value can be drawn: finite and well inside what axes and `Int` hold. Readers keep
    /// values plausible, but a chart never trusts that; a chart it cannot draw is left out.
    private static func drawable(_ value: Double) -> Bool {
        value.isFinite && Swift.abs(value) < 1e9
    }

    /// The axis ticks, counted rather than stepped: adding a step to a large Double can leave it unchanged.
    private static func ticks(from minY: Double, to maxY: Double, step: Double) -> [Double] {
        guard step > 0, let count = Int(exactly: ((maxY - minY) / step).rounded()) else { return [] }
        return (0...min(max(count, 0), 50)).map { minY + Double($0) * step }
    }

    private static func niceStep(_ raw: Double) -> Double {
        let magnitude = pow(10, floor(log10(max(raw, 1e-9))))
        for factor in [1.0, 2, 2.5, 5, 10] where raw <= factor * magnitude { return factor * magnitude }
        return 10 * magnitude
    }

    private static func niceTimeStep(_ raw: Double, from steps: [Double] = [10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600]) -> Double {
        for step in steps where raw <= step { return step }
        return steps.last.map { $0 * 2 } ?? 43200
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(exactly: seconds.rounded(.down)) ?? 0
        let h = total / 3600, m = total % 3600 / 60, s = total % 60
        if h > 0 { return "\(h):\(m < 10 ? "0" : "")\(m)" + (s > 0 ? ":\(s < 10 ? "0" : "")\(s)" : "") }
        return "\(m):\(s < 10 ? "0" : "")\(s)"
    }

    private static func format(_ value: Double, _ step: Double) -> String {
        step < 1 ? Format.number(value, decimals: 1) : Format.number(value, decimals: 0)
    }

    private static func n(_ value: Double) -> String { value.tenths }
}

extension SVGChart.Reading {
    var isPace: Bool { if case .pace = self { true } else { false } }
}
