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
    static let minuteLimit: Int64 = 2 * 86_400_000
    static let buckets = 300

    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.heartRate, use: page)
    }

    struct Link: Encodable {
        let label: String
        let url: String
        let current: Bool
    }

    struct Resting: Encodable {
        let day: String
        /// Nil when the day had too little time outside workouts to say.
        let bpm: Int?
        let why: String?
    }

    /// A day's resting figure needs this many quarter hours with a calm five-minute block that are
    /// not in a workout or the half hour after one: a day of only a run would otherwise report the
    /// run's quietest minutes (140 bpm and more) as resting.
    static let restingQuarters = 16
    static let recoveryMS: Int64 = 30 * 60_000

    /// Resting heart rate per local day: the lowest mean of a complete five-minute block (which the
    /// quarter-hour rollup keeps for each quarter), over the quarters clear of workouts.
    static func resting(user: UUID, from: Int64, to: Int64, zone: TimeZone, on sql: any SQLDatabase) async throws -> [Resting] {
        let quarter: Int64 = 900_000
        let rows = try await sql.numberRows(
            """
            SELECT quarter, rest_bpm FROM heart_rate_quarters
            WHERE user_id = \(bind: user) AND quarter >= \(bind: from / quarter) AND quarter < \(bind: to / quarter) AND rest_bpm IS NOT NULL
            ORDER BY quarter
            """, columns: ["quarter", "rest_bpm"])
        let busy = try await sql.numberRows(
            """
            SELECT start_ms, COALESCE(end_ms, start_ms + CAST(duration_s * 1000 AS BIGINT)) AS end_ms FROM workouts
            WHERE user_id = \(bind: user) AND start_ms < \(bind: to) AND COALESCE(end_ms, start_ms + CAST(duration_s * 1000 AS BIGINT)) + \(bind: recoveryMS) > \(bind: from)
            ORDER BY start_ms
            """, columns: ["start_ms", "end_ms"]
        ).compactMap { row -> Range<Int64>? in
            guard let start = row[0].flatMap({ Int64(exactly: $0) }), let end = row[1].flatMap({ Int64(exactly: $0) }) else { return nil }
            return start..<(max(start, end) + recoveryMS)
        }
        var days: [String: (lowest: Double, quarters: Int, excluded: Int)] = [:]
        for row in rows {
            guard let index = row[0].flatMap({ Int64(exactly: $0) }), let rest = row[1] else { continue }
            let begins = index * quarter
            let clock = WallClock(Date(timeIntervalSince1970: Double(begins) / 1000), zone: zone)
            let day = Format.isoDay(clock)
            var entry = days[day] ?? (.infinity, 0, 0)
            if busy.contains(where: { $0.overlaps(begins..<(begins + quarter)) }) {
                entry.excluded += 1
            } else {
                entry.lowest = min(entry.lowest, rest)
                entry.quarters += 1
            }
            days[day] = entry
        }
        let shown = { (day: String) in CalendarDate(iso: day).map(Format.day) ?? day }
        return days.sorted { $0.key > $1.key }.map { day, entry in
            guard entry.quarters >= restingQuarters else {
                let clear = Format.hoursAndMinutes(entry.quarters * 15), needed = Format.hoursAndMinutes(restingQuarters * 15)
                let why =
                    entry.excluded > 0
                    ? t("Not enough heart rate outside workouts ({clear} of the {needed} it takes).", clear, needed)
                    : t("Not enough heart rate that day ({clear} of the {needed} it takes).", clear, needed)
                return Resting(day: shown(day), bpm: nil, why: why)
            }
            return Resting(day: shown(day), bpm: Int(entry.lowest.rounded()), why: nil)
        }
    }

    struct Page: Encodable {
        let layout: Layout
        /// Set when a coach looks at an athlete's heart rate: their username and name.
        let athlete: String?
        let athleteName: String?
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

    /// Someone whose heart rate the viewer may see besides their own (an athlete they coach), by
    /// username; 404 for anyone else, so usernames reveal nothing about who is coached.
    private static func athlete(_ username: String, viewer: User, on db: any Database) async throws -> User {
        guard let athlete = try await User.query(on: db).filter(\.$username == username.lowercased()).first(),
            try await WorkoutAccess.seesAll(of: athlete.requireID(), viewer: viewer.requireID(), on: db)
        else { throw Abort(.notFound) }
        return athlete
    }

    func page(req: Request) async throws -> Response {
        // `?athlete=` is a coach looking at an athlete who accepted them; anyone else gets a 404.
        let viewer = try req.requireUser()
        let athlete = req.query[String.self, at: "athlete"]
        var user = viewer
        if let athlete { user = try await Self.athlete(athlete, viewer: viewer, on: req.db) }
        let userID = try user.requireID()
        let zone = TimeZone.named(user.timeZone)
        let now = req.clock.milliseconds
        func local(_ ms: Int64) -> String {
            let parts = LocalTime.parts(of: Date(timeIntervalSince1970: Double(ms) / 1000), zone: user.timeZone)
            return parts.day + "T" + parts.time
        }
        func parse(_ text: String?) -> Int64? {
            guard let text, text.count >= 16 else { return nil }
            let day = String(text.prefix(10)), time = String(text.dropFirst(11).prefix(5))
            return LocalTime.instant(day: day, time: time, zone: user.timeZone).map { Int64($0.timeIntervalSince1970 * 1000) }
        }
        let todayStart = parse(LocalTime.parts(of: req.now, zone: user.timeZone).day + "T00:00") ?? now - 86_400_000
        var error: String?
        var from = parse(req.query[String.self, at: "from"]) ?? now - 86_400_000
        var to = parse(req.query[String.self, at: "to"]) ?? now
        if req.query[String.self, at: "from"] != nil && parse(req.query[String.self, at: "from"]) == nil { error = t("Enter times as a date and a time.") }
        if to <= from { error = t("The end must be after the start."); from = now - 86_400_000; to = now }
        if to - from > Self.maxSpan { error = t("Choose at most a year."); from = to - Self.maxSpan }
        if to - from < 600_000 { let centre = (from + to) / 2; from = centre - 300_000; to = centre + 300_000 }

        func url(_ a: Int64, _ b: Int64) -> String {
            SiteURL.heartRate.with([("athlete", athlete == nil ? nil : user.username), ("from", local(a)), ("to", local(b))])
        }
        let span = to - from
        var buckets: [Bucket] = []
        var resting: [Resting] = []
        var summary: String?
        if user.continuousHeartRate {
            let sql = req.db.sql
            buckets = try await Self.bands(of: userID, from: from, to: to, on: sql)
            if !buckets.isEmpty {
                summary = t("Lowest {lowest} bpm, highest {highest} bpm.", Int(buckets.map(\.low).min()!), Int(buckets.map(\.high).max()!))
            }
            if span >= 86_400_000 / 2 {
                resting = try await Self.resting(user: userID, from: from, to: to, zone: zone, on: sql)
            }
        }
        let title = "\(Format(user).when(from)) – \(Format(user).when(to))"
        let page = Page(
            layout: req.layout(title: athlete == nil ? t("Heart rate") : t("{name}'s heart rate", user.displayName), section: .workouts),
            athlete: athlete == nil ? nil : user.username, athleteName: athlete == nil ? nil : user.displayName, enabled: user.continuousHeartRate,
            presets: Self.presets(now: now, todayStart: todayStart, from: from, to: to, url: url),
            navigation: Self.navigation(from: from, to: to, now: now, url: url), from: local(from), to: local(to), title: title,
            chart: SVGChart.band(
                from: from, to: to, buckets: buckets, zone: zone,
                label: t("Heart rate from {range}: the band is the lowest to highest, the line the average", title), unit: "bpm"),
            fromMS: from, toMS: to, zone: zone.identifier,
            summary: summary, resting: resting, error: error)
        return try await req.view.render("workouts/heart_rate", page).encodeResponse(status: error == nil ? .ok : .unprocessableEntity, for: req)
    }

    /// One band of the chart: its middle instant, and the lowest, highest and mean beat in it.
    private typealias Bucket = (t: Int64, low: Double, high: Double, mean: Double)

    /// The last hour, today, a week and a month; the one shown is current.
    private static func presets(now: Int64, todayStart: Int64, from: Int64, to: Int64, url: (Int64, Int64) -> String) -> [Link] {
        let presetRanges: [(String, Int64, Int64)] = [
            (t("Last hour"), now - 3_600_000, now), (t("Today"), todayStart, now),
            (tn("{count} day", "{count} days", 7), now - 7 * 86_400_000, now), (tn("{count} day", "{count} days", 30), now - 30 * 86_400_000, now),
        ]
        return presetRanges.map { Link(label: $0.0, url: url($0.1, $0.2), current: abs($0.1 - from) < 60_000 && abs($0.2 - to) < 60_000) }
    }

    /// Earlier, zoom in, zoom out and later, from the range shown.
    private static func navigation(from: Int64, to: Int64, now: Int64, url: (Int64, Int64) -> String) -> [Link] {
        let span = to - from
        let centre = from + span / 2
        return [
            Link(label: "← " + t("Earlier"), url: url(from - span, to - span), current: false),
            Link(label: t("Zoom in"), url: url(centre - span / 4, centre + span / 4), current: false),
            Link(label: t("Zoom out"), url: url(centre - span, min(centre + span, now)), current: false),
            Link(label: t("Later") + " →", url: url(from + span, to + span), current: false),
        ]
    }

    /// The user's heart rate from `from` to `to` in about `buckets` bands.
    private static func bands(of userID: UUID, from: Int64, to: Int64, on sql: any SQLDatabase) async throws -> [Bucket] {
        let span = to - from
        let width = max(span / Int64(Self.buckets), 1000)
        // The finest store that still answers quickly: samples up to six hours, the minute
        // rollup up to two days, the quarter-hour rollup beyond.
        let (table, key, unit, low, high, sum, count): (String, String, Int64, String, String, String, String) =
            span <= Self.rawLimit
            ? ("heart_rate_samples", "t", 1, "bpm", "bpm", "bpm", "1")
            : span <= Self.minuteLimit
                ? ("heart_rate_minutes", "minute", 60_000, "min_bpm", "max_bpm", "sum_bpm", "samples")
                : ("heart_rate_quarters", "quarter", 900_000, "min_bpm", "max_bpm", "sum_bpm", "samples")
        let per = max(width / unit, 1)
        let rows = try await sql.numberRows(
            """
            SELECT \(unsafeRaw: key) / \(unsafeRaw: String(per)) AS b, MIN(\(unsafeRaw: low)) AS lo, MAX(\(unsafeRaw: high)) AS hi,
                   CAST(SUM(\(unsafeRaw: sum)) AS DOUBLE PRECISION) / SUM(\(unsafeRaw: count)) AS mean
            FROM \(unsafeRaw: table) WHERE user_id = \(bind: userID) AND \(unsafeRaw: key) >= \(bind: from / unit) AND \(unsafeRaw: key) < \(bind: to / unit)
            GROUP BY \(unsafeRaw: key) / \(unsafeRaw: String(per)) ORDER BY b
            """, columns: ["b", "lo", "hi", "mean"])
        return rows.compactMap { row in
            guard let b = row[0], let lo = row[1], let hi = row[2], let mean = row[3] else { return nil }
            return (Int64(b) * per * unit + per * unit / 2, lo, hi, mean)
        }
    }
}
