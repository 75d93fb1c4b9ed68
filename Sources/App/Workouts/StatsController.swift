import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/stats?period=day|week|month&sport=`: the last 12 periods side by side, and the average, maximum
/// and total of every number over them.
struct StatsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.stats, use: page)
    }

    struct PeriodRow: Encodable {
        let label: String
        let workouts: Int
        let duration: String
        let distance: String
        let calories: String
        let steps: String
    }

    struct Attribute: Encodable {
        let name: String
        let average: String
        let maximum: String
        let total: String
    }

    struct Page: Encodable {
        let layout: Layout
        let periods: [SelectOption]
        let sports: [SelectOption]
        let chart: String
        let rows: [PeriodRow]
        let attributes: [Attribute]
        let count: Int
        let heading: String
    }

    func page(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let format = Format(user)
        let period = ReportPeriod(rawValue: req.query[String.self, at: "period"] ?? "") ?? .week
        let sport = req.query[String.self, at: "sport"].flatMap(WorkoutSport.init(rawValue:))
        let today = req.clock.today(in: user.timeZone)
        let starts = period.last(12, endingAt: today)
        func instant(_ day: CalendarDate) -> Int64 {
            Int64((LocalTime.instant(day: day.description, time: "00:00", zone: user.timeZone) ?? req.now).timeIntervalSince1970 * 1000)
        }
        let bounds = starts.map(instant) + [instant(period.next(after: starts.last!))]
        let buckets = try await Self.buckets(of: user, bounds: bounds, sport: sport, on: req.db)
        let names: [ReportPeriod: String] = [.day: t("Days"), .week: t("Weeks"), .month: t("Months")]
        let last: String =
            switch period {
            case .day: t("Last 12 days")
            case .week: t("Last 12 weeks")
            case .month: t("Last 12 months")
            }
        let page = Page(
            layout: req.layout(title: t("Statistics"), section: .workouts),
            periods: ReportPeriod.allCases.map { SelectOption(value: $0.rawValue, label: names[$0]!, selected: $0 == period) },
            sports: WorkoutSport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0 == sport) },
            chart: Self.chart(buckets, starts: starts, period: period), rows: Self.rows(buckets, starts: starts, period: period, format: format).reversed(),
            attributes: Self.attributes(buckets, format: format), count: buckets.counts.reduce(0, +),
            heading: last + (sport.map { ", \($0.label.lowercased())" } ?? ""))
        return try await req.view.render("workouts/stats", page).encodeResponse(for: req)
    }

    /// Per period (0 the oldest): how many workouts, and the sum, count and maximum of every number.
    private struct Buckets {
        struct Totals { var sum = 0.0, count = 0, maximum: Double? }
        static let columns = ["duration_s", "moving_s", "distance_m", "elevation_gain_m", "avg_speed_mps", "avg_hr", "calories_kcal", "steps", "trimp"]
        var counts = [Int](repeating: 0, count: 12)
        var totals = [[String: Totals]](repeating: [:], count: 12)

        func total(_ bucket: Int, _ column: String) -> Double { totals[bucket][column]?.sum ?? 0 }
    }

    /// One pass in the database: each workout's period by its start (`bounds` are the 13 edges),
    /// and per period the sum, count and maximum of every number (hydrating thousands of workouts
    /// would cost far more).
    private static func buckets(of user: User, bounds: [Int64], sport: WorkoutSport?, on db: any Database) async throws -> Buckets {
        var text = "SELECT CASE"
        for index in 1..<12 { text += " WHEN start_ms < \(bounds[index]) THEN \(index - 1)" }
        text += " ELSE 11 END AS bucket, COUNT(*) AS n"
        for column in Buckets.columns {
            text +=
                ", CAST(SUM(\(column)) AS DOUBLE PRECISION) AS sum_\(column), COUNT(\(column)) AS n_\(column), CAST(MAX(\(column)) AS DOUBLE PRECISION) AS max_\(column)"
        }
        var sql = SQLQueryString(text)
        sql.appendInterpolation(unsafeRaw: " FROM workouts WHERE user_id = ")
        sql.appendInterpolation(bind: try user.requireID())
        sql.appendInterpolation(unsafeRaw: " AND end_ms IS NOT NULL AND start_ms >= \(bounds.first!) AND start_ms < \(bounds.last!)")
        if let sport {
            sql.appendInterpolation(unsafeRaw: " AND sport = ")
            sql.appendInterpolation(bind: sport.rawValue)
        }
        sql.appendInterpolation(unsafeRaw: " GROUP BY 1")
        var buckets = Buckets()
        for row in try await db.sql.raw(sql).all() {
            let bucket = try row.decode(column: "bucket", as: Int.self)
            buckets.counts[bucket] = try row.decode(column: "n", as: Int.self)
            for column in Buckets.columns {
                buckets.totals[bucket][column] = Buckets.Totals(
                    sum: try row.decode(column: "sum_\(column)", as: Double?.self) ?? 0,
                    count: try row.decode(column: "n_\(column)", as: Int.self),
                    maximum: try row.decode(column: "max_\(column)", as: Double?.self))
            }
        }
        return buckets
    }

    private static func rows(_ buckets: Buckets, starts: [CalendarDate], period: ReportPeriod, format: Format) -> [PeriodRow] {
        starts.enumerated().map { index, start in
            PeriodRow(
                label: period == .week ? t("Week of {day}", Format.day(start)) : period == .month ? Format.monthOnAxis(start) : Format.day(start),
                workouts: buckets.counts[index], duration: Format.duration(buckets.total(index, "duration_s")),
                distance: format.distance(buckets.total(index, "distance_m")),
                calories: Format.whole(buckets.total(index, "calories_kcal")),
                steps: Format.whole(buckets.total(index, "steps")))
        }
    }

    /// Training time per period.
    private static func chart(_ buckets: Buckets, starts: [CalendarDate], period: ReportPeriod) -> String {
        func label(_ day: CalendarDate) -> String {
            switch period {
            case .day: Format.dayAndMonth(day)
            case .week: Format.dayAndMonth(day)
            case .month: Format.monthOnAxis(day)
            }
        }
        let chartLabel =
            switch period {
            case .day: t("Training time per day, last 12")
            case .week: t("Training time per week, last 12")
            case .month: t("Training time per month, last 12")
            }
        return SVGChart.columns(
            starts.enumerated().map { index, start in
                let minutes = buckets.total(index, "duration_s") / 60
                return (label: label(start), value: minutes, text: minutes >= 60 ? Format.hours(minutes / 60) : "\(Format.whole(minutes))m")
            }, label: chartLabel, colour: "#0b6e4f")
    }

    /// Average, maximum and total of each number, over the workouts that have it.
    private static func attributes(_ buckets: Buckets, format: Format) -> [Attribute] {
        func attribute(_ name: String, _ column: String, _ show: (Double) -> String, total: Bool = true) -> Attribute {
            let parts = buckets.totals.compactMap { $0[column] }
            let count = parts.map(\.count).reduce(0, +), sum = parts.map(\.sum).reduce(0, +)
            guard count > 0, let maximum = parts.compactMap(\.maximum).max() else { return Attribute(name: name, average: "–", maximum: "–", total: "–") }
            return Attribute(name: name, average: show(sum / Double(count)), maximum: show(maximum), total: total ? show(sum) : "–")
        }
        return [
            attribute(t("Duration"), "duration_s", Format.duration),
            attribute(t("Moving time"), "moving_s", Format.duration),
            attribute(t("Distance"), "distance_m", { format.distance($0) }),
            attribute(t("Climbing"), "elevation_gain_m", { format.elevation($0) }),
            attribute(t("Average speed"), "avg_speed_mps", { format.speed($0) }, total: false),
            attribute(t("Average heart rate"), "avg_hr", { "\(Format.whole($0)) bpm" }, total: false),
            attribute(t("Calories"), "calories_kcal", { "\(Format.whole($0)) kcal" }),
            attribute(t("Steps"), "steps", { Format.whole($0) }),
            attribute(t("Training load (TRIMP)"), "trimp", { Format.whole($0) }),
        ]
    }
}
