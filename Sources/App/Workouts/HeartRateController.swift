import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/heart-rate?from=&to=`: continuous heart rate as a min–max band with the mean, for any range.
/// Up to six hours it reads the samples; longer ranges read the per-minute rollup, so a month
/// costs 43,200 rows at most. Also the daily resting heart rate: each day's lowest 5-minute mean.
struct HeartRateController: RouteCollection {
    static let maxSpan: Int64 = 366 * 86_400_000
    static let rawLimit: Int64 = 6 * 3_600_000
    static let buckets = 300

    func boot(routes: any RoutesBuilder) throws {
        routes.get("heart-rate", use: page)
    }

    struct Link: Encodable {
        let label: String
        let url: String
        let current: Bool
    }

    struct Resting: Encodable {
        let day: String
        let bpm: Int
    }

    struct Page: Encodable {
        let layout: Layout
        let enabled: Bool
        let presets: [Link]
        let navigation: [Link]
        let from: String
        let to: String
        let title: String
        let chart: String
        /// The chart's span in epoch milliseconds and the zone its times are in, for choosing a
        /// range by dragging across it (app.js).
        let fromMS: Int64
        let toMS: Int64
        let zone: String
        let summary: String?
        let resting: [Resting]
        let error: String?
    }

    func page(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let zone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func local(_ ms: Int64) -> String {
            let parts = LocalTime.parts(of: Date(timeIntervalSince1970: Double(ms) / 1000), zone: user.timeZone)
            return parts.day + "T" + parts.time
        }
        func parse(_ text: String?) -> Int64? {
            guard let text, text.count >= 16 else { return nil }
            let day = String(text.prefix(10)), time = String(text.dropFirst(11).prefix(5))
            return LocalTime.instant(day: day, time: time, zone: user.timeZone).map { Int64($0.timeIntervalSince1970 * 1000) }
        }
        let todayStart = parse(LocalTime.parts(of: Date(), zone: user.timeZone).day + "T00:00") ?? now - 86_400_000
        let presetRanges: [(String, Int64, Int64)] = [
            ("Last hour", now - 3_600_000, now), ("Today", todayStart, now),
            ("7 days", now - 7 * 86_400_000, now), ("30 days", now - 30 * 86_400_000, now),
        ]
        var error: String?
        var from = parse(req.query[String.self, at: "from"]) ?? now - 86_400_000
        var to = parse(req.query[String.self, at: "to"]) ?? now
        if req.query[String.self, at: "from"] != nil && parse(req.query[String.self, at: "from"]) == nil { error = "Enter times as a date and a time." }
        if to <= from { error = "The end must be after the start."; from = now - 86_400_000; to = now }
        if to - from > Self.maxSpan { error = "Choose at most a year."; from = to - Self.maxSpan }
        if to - from < 600_000 { let centre = (from + to) / 2; from = centre - 300_000; to = centre + 300_000 }

        func url(_ a: Int64, _ b: Int64) -> String {
            "/heart-rate?from=\(local(a).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&to=\(local(b).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        }
        let span = to - from
        let centre = from + span / 2
        let navigation = [
            Link(label: "← Earlier", url: url(from - span, to - span), current: false),
            Link(label: "Zoom in", url: url(centre - span / 4, centre + span / 4), current: false),
            Link(label: "Zoom out", url: url(centre - span, min(centre + span, now)), current: false),
            Link(label: "Later →", url: url(from + span, to + span), current: false),
        ]

        var buckets: [(t: Int64, low: Double, high: Double, mean: Double)] = []
        var resting: [Resting] = []
        var summary: String?
        if user.continuousHeartRate {
            let sql = req.db as! any SQLDatabase
            let width = max(span / Int64(Self.buckets), 1000)
            if span <= Self.rawLimit {
                let rows = try await sql.raw("""
                    SELECT t / \(unsafeRaw: String(width)) AS b, MIN(bpm) AS lo, MAX(bpm) AS hi, AVG(CAST(bpm AS DOUBLE PRECISION)) AS mean
                    FROM heart_rate_samples WHERE user_id = \(bind: userID) AND t >= \(bind: from) AND t < \(bind: to)
                    GROUP BY t / \(unsafeRaw: String(width)) ORDER BY b
                    """).all()
                for row in rows {
                    buckets.append((try row.decode(column: "b", as: Int64.self) * width + width / 2, Double(try row.decode(column: "lo", as: Int.self)),
                                    Double(try row.decode(column: "hi", as: Int.self)), try row.decode(column: "mean", as: Double.self)))
                }
            } else {
                let minuteWidth = max(width / 60_000, 1)
                let rows = try await sql.raw("""
                    SELECT minute / \(unsafeRaw: String(minuteWidth)) AS b, MIN(min_bpm) AS lo, MAX(max_bpm) AS hi,
                           CAST(SUM(sum_bpm) AS DOUBLE PRECISION) / SUM(samples) AS mean
                    FROM heart_rate_minutes WHERE user_id = \(bind: userID) AND minute >= \(bind: from / 60_000) AND minute < \(bind: to / 60_000)
                    GROUP BY minute / \(unsafeRaw: String(minuteWidth)) ORDER BY b
                    """).all()
                for row in rows {
                    buckets.append((try row.decode(column: "b", as: Int64.self) * minuteWidth * 60_000 + minuteWidth * 30_000,
                                    Double(try row.decode(column: "lo", as: Int.self)), Double(try row.decode(column: "hi", as: Int.self)),
                                    try row.decode(column: "mean", as: Double.self)))
                }
            }
            if !buckets.isEmpty {
                summary = "Lowest \(Int(buckets.map(\.low).min()!)) bpm, highest \(Int(buckets.map(\.high).max()!)) bpm."
            }
            // Resting heart rate per local day: the lowest mean of a complete five-minute block. The
            // database reduces the minutes to the lowest block of each quarter hour (every time zone
            // is a whole number of quarter hours from UTC), so a month is 2,880 rows, not 43,200.
            if span >= 86_400_000 / 2 {
                let rows = try await sql.raw("""
                    SELECT block / 3 AS quarter, MIN(mean) AS low FROM (
                        SELECT minute / 5 AS block, CAST(SUM(sum_bpm) AS DOUBLE PRECISION) / SUM(samples) AS mean
                        FROM heart_rate_minutes WHERE user_id = \(bind: userID) AND minute >= \(bind: from / 60_000) AND minute < \(bind: to / 60_000)
                        GROUP BY minute / 5 HAVING COUNT(*) = 5
                    ) blocks GROUP BY block / 3
                    """).all()
                var lowest: [String: Double] = [:]
                for row in rows {
                    let clock = WallClock(Date(timeIntervalSince1970: Double(try row.decode(column: "quarter", as: Int64.self) * 900)), zone: zone)
                    let day = String(format: "%04d-%02d-%02d", clock.year, clock.month, clock.day)
                    lowest[day] = min(lowest[day] ?? .infinity, try row.decode(column: "low", as: Double.self))
                }
                resting = lowest.sorted { $0.key > $1.key }.map { Resting(day: $0.key, bpm: Int($0.value.rounded())) }
            }
        }
        let title = "\(WorkoutFormat(user).when(from)) – \(WorkoutFormat(user).when(to))"
        let page = Page(
            layout: req.layout(title: "Heart rate", section: "workouts"), enabled: user.continuousHeartRate,
            presets: presetRanges.map { Link(label: $0.0, url: url($0.1, $0.2), current: abs($0.1 - from) < 60_000 && abs($0.2 - to) < 60_000) },
            navigation: navigation, from: local(from), to: local(to), title: title,
            chart: SVGChart.band(from: from, to: to, buckets: buckets, zone: zone,
                                 label: "Heart rate from \(title): the band is the lowest to highest, the line the average", unit: "bpm"),
            fromMS: from, toMS: to, zone: zone.identifier,
            summary: summary, resting: resting, error: error)
        return try await req.view.render("workouts/heart_rate", page).encodeResponse(status: error == nil ? .ok : .unprocessableEntity, for: req)
    }
}
