import FieldhouseKit
import Fluent
import Vapor

/// `/stats?period=day|week|month&sport=`: the last 12 periods side by side, and the average, maximum
/// and total of every number over them.
struct StatsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("stats", use: page)
    }

    struct Option: Encodable {
        let value: String
        let label: String
        let selected: Bool
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
        let periods: [Option]
        let sports: [Option]
        let chart: String
        let rows: [PeriodRow]
        let attributes: [Attribute]
        let count: Int
        let heading: String
    }

    func page(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let format = WorkoutFormat(user)
        let period = ReportPeriod(rawValue: req.query[String.self, at: "period"] ?? "") ?? .week
        let sport = req.query[String.self, at: "sport"].flatMap(WorkoutSport.init(rawValue:))
        let today = CalendarDate(iso: LocalTime.parts(of: Date(), zone: user.timeZone).day) ?? .today
        let starts = period.last(12, endingAt: today)
        func instant(_ day: CalendarDate) -> Int64 {
            Int64((LocalTime.instant(day: day.description, time: "00:00", zone: user.timeZone) ?? Date()).timeIntervalSince1970 * 1000)
        }
        let bounds = starts.map(instant) + [instant(period.next(after: starts.last!))]
        var query = try Workout.query(on: req.db).filter(\.$user.$id == user.requireID()).filter(\.$endMS != nil)
            .filter(\.$startMS >= bounds.first!).filter(\.$startMS < bounds.last!)
        if let sport { query = query.filter(\.$sport == sport.rawValue) }
        let workouts = try await query.all()

        var buckets = [[Workout]](repeating: [], count: 12)
        for workout in workouts {
            if let index = bounds.indices.dropLast().last(where: { bounds[$0] <= workout.startMS }) { buckets[index].append(workout) }
        }
        func label(_ day: CalendarDate) -> String {
            switch period {
            case .day: "\(day.day) \(WallClock.shortMonths[day.month - 1])"
            case .week: "\(day.day) \(WallClock.shortMonths[day.month - 1])"
            case .month: WallClock.shortMonths[day.month - 1] + (day.month == 1 ? " \(day.year % 100)" : "")
            }
        }
        let rows = zip(starts, buckets).map { start, list in
            PeriodRow(label: (period == .week ? "Week of " : "") + label(start) + (period == .month ? "" : " \(start.year)"),
                      workouts: list.count, duration: WorkoutFormat.duration(list.map(\.duration).reduce(0, +)),
                      distance: format.distance(list.compactMap(\.distance).reduce(0, +)),
                      calories: "\(Int(list.compactMap(\.calories).reduce(0, +).rounded()))",
                      steps: "\(list.compactMap(\.steps).reduce(0, +))")
        }
        let chart = SVGChart.columns(zip(starts, buckets).map { start, list in
            let minutes = list.map(\.duration).reduce(0, +) / 60
            return (label: label(start), value: minutes, text: minutes >= 60 ? String(format: "%.1f h", minutes / 60) : "\(Int(minutes.rounded()))m")
        }, label: "Training time per \(period.rawValue), last 12", colour: "#0b6e4f")

        // Average, maximum and total of each number, over the workouts that have it.
        func attribute(_ name: String, _ values: [Double], _ show: (Double) -> String, total: Bool = true) -> Attribute {
            guard !values.isEmpty else { return Attribute(name: name, average: "–", maximum: "–", total: "–") }
            return Attribute(name: name, average: show(values.reduce(0, +) / Double(values.count)), maximum: show(values.max()!),
                             total: total ? show(values.reduce(0, +)) : "–")
        }
        let attributes = [
            attribute("Duration", workouts.map(\.duration), WorkoutFormat.duration),
            attribute("Moving time", workouts.map(\.moving), WorkoutFormat.duration),
            attribute("Distance", workouts.compactMap(\.distance), { format.distance($0) }),
            attribute("Climbing", workouts.compactMap(\.elevationGain), { format.elevation($0) }),
            attribute("Average speed", workouts.compactMap(\.avgSpeed), { format.speed($0) }, total: false),
            attribute("Average heart rate", workouts.compactMap(\.avgHeartRate).map(Double.init), { "\(Int($0.rounded())) bpm" }, total: false),
            attribute("Calories", workouts.compactMap(\.calories), { "\(Int($0.rounded())) kcal" }),
            attribute("Steps", workouts.compactMap(\.steps).map(Double.init), { "\(Int($0.rounded()))" }),
            attribute("Training load (TRIMP)", workouts.compactMap(\.trimp), { "\(Int($0.rounded()))" }),
        ]
        let names: [ReportPeriod: String] = [.day: "Days", .week: "Weeks", .month: "Months"]
        let page = Page(
            layout: req.layout(title: "Statistics", section: "workouts"),
            periods: ReportPeriod.allCases.map { Option(value: $0.rawValue, label: names[$0]!, selected: $0 == period) },
            sports: WorkoutSport.allCases.map { Option(value: $0.rawValue, label: $0.label, selected: $0 == sport) },
            chart: chart, rows: rows.reversed(), attributes: attributes, count: workouts.count,
            heading: "Last 12 \(names[period]!.lowercased())" + (sport.map { ", \($0.label.lowercased())" } ?? ""))
        return try await req.view.render("workouts/stats", page).encodeResponse(for: req)
    }
}
