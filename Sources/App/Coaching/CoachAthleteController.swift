import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/coach/athletes/{username}`: one athlete as their coach sees them — five weeks of planned and
/// completed sessions, twelve weeks of totals, the load trend and the time in each zone — and
/// planning sessions for them. Only with an active grant; anyone else gets a 404.
struct CoachAthleteController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CoachPath.athlete, use: page)
        routes.post(CoachPath.plans, use: plan)
        routes.post(CoachPath.deletePlan, use: deletePlan)
    }

    struct Day: Encodable {
        let label: String
        let today: Bool
        let items: [TrainingItem]
    }

    struct Week: Encodable {
        let label: String
        let days: [Day]
        let totals: String
    }

    struct PlanForm: Content {
        var day: String?
        var sport: String?
        var duration: String?
        var distance: String?
        var description: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let username: String
        let name: String
        let weeks: [Week]
        let weeklyChart: String
        let loadChart: String
        let loadSummary: String
        let zoneChart: String
        let sports: [SelectOption]
        let form: PlanForm
        let errors: FieldErrors
        let distanceUnit: String
    }

    func page(req: Request) async throws -> Response {
        let coach = try req.requireUser()
        let athlete = try await AthleteAccess.load(req, coach: coach).athlete
        return try await render(req, coach: coach, athlete: athlete)
    }

    private func render(_ req: Request, coach: User, athlete: User, form: PlanForm? = nil, errors: FieldErrors = [:]) async throws -> Response {
        let format = Format(coach)
        let squad = SquadTraining(athletes: [
            .init(
                id: try athlete.requireID(), username: athlete.username, name: athlete.displayName,
                zone: TimeZone.named(athlete.timeZone))
        ])
        let clock = WallClock(req.now, zone: squad.athletes[0].zone)
        let today = CalendarDate(year: clock.year, month: clock.month, day: clock.day)!
        let thisWeek = ReportPeriod.week.start(containing: today)
        let now = req.clock.milliseconds
        // 12 weeks of totals and a load trend that needs 28 days before its first day.
        let firstWeek = thisWeek.adding(days: -77)
        let from = Int64(firstWeek.adding(days: -29).dayNumber) * 86_400_000
        let done = try await squad.workouts(from: from, to: now + 86_400_000, on: req.db)
        let plans = try await squad.plans(from: thisWeek.adding(days: -21).description, through: thisWeek.adding(days: 13).description, on: req.db)
        let listed = try await Self.listed(of: athlete, since: firstWeek.adding(days: -1), on: req.db)
        let weeks = Self.weeks(
            from: thisWeek, today: today, plans: plans, done: done, listed: listed, zone: squad.athletes[0].zone, coach: coach, format: format)
        let (loadChart, loadSummary) = Self.load(done, from: firstWeek, through: today)
        let form = form ?? PlanForm(day: today.adding(days: 1).description, sport: "running", duration: "45", distance: "", description: "")
        let page = Page(
            layout: req.layout(title: t("{name} · coaching", athlete.displayName)), username: athlete.username, name: athlete.displayName,
            weeks: weeks, weeklyChart: Self.weeklyChart(done, from: firstWeek), loadChart: loadChart, loadSummary: loadSummary,
            zoneChart: Self.zoneChart(listed),
            sports: WorkoutSport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0.rawValue == form.sport) },
            form: form, errors: errors, distanceUnit: format.imperial ? "mi" : "km")
        return try await req.view.render("coaching/athlete", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    /// The athlete's finished workouts since a day, as others may see them (the shared part).
    private struct Listed: Decodable {
        let id: UUID; let name: String; let sport: String; let start_ms: Int64; let duration_s: Double; let distance_m: Double?; let zones: String?
    }

    private static func listed(of athlete: User, since first: CalendarDate, on db: any Database) async throws -> [Listed] {
        try await db.sql.raw(
            """
            SELECT id, name, sport, shared_start_ms AS start_ms, COALESCE(shared_duration_s, duration_s) AS duration_s,
              COALESCE(shared_distance_m, distance_m) AS distance_m, zones FROM workouts
            WHERE user_id = \(bind: athlete.requireID()) AND end_ms IS NOT NULL AND start_ms >= \(bind: Int64(first.dayNumber) * 86_400_000)
            ORDER BY start_ms
            """
        ).all(decoding: Listed.self)
    }

    /// Five weeks: three behind, this one and the next, with plans and what was done.
    private static func weeks(
        from thisWeek: CalendarDate, today: CalendarDate, plans: [SquadTraining.Plan], done: [SquadTraining.Done], listed: [Listed],
        zone: TimeZone, coach: User, format: Format
    ) -> [Week] {
        func day(of ms: Int64) -> String {
            let c = WallClock(Date(timeIntervalSince1970: Double(ms) / 1000), zone: zone)
            return Format.isoDay(year: c.year, month: c.month, day: c.day)
        }
        var weeks: [Week] = []
        for offset in [-21, -14, -7, 0, 7] {
            let start = thisWeek.adding(days: offset)
            var days: [Day] = []
            var seconds = 0.0, metres = 0.0
            for index in 0..<7 {
                let date = start.adding(days: index)
                let key = date.description
                var items: [TrainingItem] = []
                for plan in plans where plan.day == key {
                    let grade = SquadTraining.compliance(of: plan, done: done, today: today.description)
                    var amount: [String] = []
                    if let duration = plan.duration { amount.append(Format.duration(duration)) }
                    if let distance = plan.distance { amount.append(format.distance(distance)) }
                    items.append(
                        TrainingItem(
                            text: t("Planned: {sport} {amount}", plan.sport.label, amount.joined(separator: ", "))
                                + (plan.description.isEmpty ? "" : " — \(plan.description)"),
                            url: nil, planID: plan.coach == coach.id ? plan.id.uuidString.lowercased() : nil,
                            grade: grade?.rawValue, gradeLabel: grade?.label))
                }
                for workout in listed where day(of: workout.start_ms) == key {
                    seconds += workout.duration_s
                    metres += workout.distance_m ?? 0
                    items.append(
                        TrainingItem(
                            text: "\((WorkoutSport(rawValue: workout.sport) ?? .other).label): \(workout.name), \(Format.duration(workout.duration_s))"
                                + (workout.distance_m.map { ", \(format.distance($0))" } ?? ""),
                            url: SiteURL.workout(workout.id).path, planID: nil, grade: nil, gradeLabel: nil))
                }
                days.append(Day(label: Format.weekdayAndDayOfMonth(date), today: date == today, items: items))
            }
            weeks.append(
                Week(
                    label: offset == 0
                        ? t("This week") : offset == 7 ? t("Next week") : t("Week of {day}", Format.dayAndMonth(start)),
                    days: days, totals: seconds == 0 ? t("nothing yet") : Format.duration(seconds) + (metres > 0 ? " · \(format.distance(metres))" : "")))
        }
        return weeks
    }

    /// Twelve weeks of training time.
    private static func weeklyChart(_ done: [SquadTraining.Done], from firstWeek: CalendarDate) -> String {
        let weekStarts = (0..<12).map { firstWeek.adding(days: 7 * $0) }
        return SVGChart.columns(
            weekStarts.map { start in
                let first = start.description, last = start.adding(days: 6).description
                let hours = done.filter { $0.day >= first && $0.day <= last }.map(\.duration).reduce(0, +) / 3600
                return (label: Format.dayAndMonth(start), value: hours, text: Format.hours(hours))
            }, label: t("Training time per week, last 12 weeks"), colour: "#0b6e4f")
    }

    /// The daily load trend from the first week to today, and what it says.
    private static func load(_ done: [SquadTraining.Done], from firstWeek: CalendarDate, through today: CalendarDate) -> (chart: String, summary: String) {
        var trimpByDay: [String: Double] = [:]
        for workout in done { trimpByDay[workout.day, default: 0] += workout.trimp ?? 0 }
        var acute: [Double?] = [], chronic: [Double?] = [], seconds: [Double] = []
        let trendDays = firstWeek.dayNumber...today.dayNumber
        for number in trendDays {
            func sum(_ days: Int) -> Double {
                ((number - days + 1)...number).map { trimpByDay[CalendarDate.fromDayNumber($0).description] ?? 0 }.reduce(0, +)
            }
            acute.append(sum(7))
            chronic.append(sum(28) / 4)
            seconds.append(Double(number - trendDays.lowerBound) * 86_400)
        }
        let loadChart = SVGChart.line(
            seconds: seconds, values: acute, label: t("Training load: last 7 days (solid) against the 28-day weekly average (dashed)"),
            unit: "TRIMP", colour: "#b3261e", also: (chronic, "#1d4ed8"), firstDay: firstWeek)
        let load = TrainingLoad(acute: acute.last.flatMap { $0 } ?? 0, chronic28: (chronic.last.flatMap { $0 } ?? 0) * 4)
        let loadSummary: String
        if let ratio = load.ratio {
            loadSummary =
                load.overreaching
                ? t(
                    "Last 7 days {acute}, usual week {usual}: {ratio} times, well above what this athlete is used to.", Format.whole(load.acute),
                    Format.whole(load.chronicWeekly), Format.number(ratio, decimals: 2))
                : t(
                    "Last 7 days {acute}, usual week {usual}: {ratio} times.", Format.whole(load.acute), Format.whole(load.chronicWeekly),
                    Format.number(ratio, decimals: 2))
        } else {
            loadSummary = t("Last 7 days {acute}, usual week {usual}.", Format.whole(load.acute), Format.whole(load.chronicWeekly))
        }
        return (loadChart, loadSummary)
    }

    /// Time in each zone over the twelve weeks; empty without heart rate.
    private static func zoneChart(_ listed: [Listed]) -> String {
        var zoneSeconds = [Double](repeating: 0, count: 5)
        for workout in listed {
            let parts = (workout.zones ?? "").split(separator: ";")
            guard parts.count == 2 else { continue }
            for (index, value) in parts[1].split(separator: ",").compactMap({ Double($0) }).prefix(5).enumerated() { zoneSeconds[index] += value }
        }
        let totalZone = zoneSeconds.reduce(0, +)
        return
            totalZone == 0
            ? ""
            : SVGChart.bars(
                (0..<5).map { index in
                    (
                        label: t("Zone {number}", index + 1), value: zoneSeconds[index],
                        text: "\(Format.duration(zoneSeconds[index])) · \(Format.whole(zoneSeconds[index] / totalZone * 100)) %",
                        fill: WorkoutDrawings.zoneBarColours[index]
                    )
                }, label: t("Time in each heart-rate zone, last 12 weeks"))
    }

    /// The coach plans a session: a day, a sport and a duration, a distance or both.
    func plan(req: Request) async throws -> Response {
        let coach = try req.requireUser()
        let athlete = try await AthleteAccess.load(req, coach: coach).athlete
        let form = try req.content.decode(PlanForm.self)
        var errors: FieldErrors = [:]
        let day = CalendarDate(iso: (form.day ?? "").trimmingCharacters(in: .whitespaces))
        if day == nil { errors["day"] = t("Choose a day.") }
        let sport = WorkoutSport(rawValue: form.sport ?? "")
        if sport == nil { errors["sport"] = t("Choose a sport from the list.") }
        let format = Format(coach)
        let minutes = FormNumber.read(
            form.duration, in: 1...1440, field: "duration",
            message: t("Enter the planned minutes, from 1 to 1,440"), errors: &errors)
        let distance = FormNumber.read(
            form.distance, in: 0.01...1000, field: "distance",
            message: t("Enter a distance above 0 and at most 1,000 {unit}", format.imperial ? "mi" : "km"), errors: &errors
        )
        .map { $0 * (format.imperial ? Format.metresPerMile : 1000) }
        if minutes == nil && distance == nil && errors["duration"] == nil && errors["distance"] == nil {
            errors["duration"] = t("Plan a duration, a distance or both.")
        }
        if let sport, let minutes, let distance, let problem = Format.implausibleSpeed(metres: distance, seconds: minutes * 60, sport: sport, format: format) {
            errors["distance"] = problem
        }
        let description = (form.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if description.count > 500 { errors["description"] = t("Keep the description to 500 characters.") }
        guard errors.isEmpty, let day, let sport else { return try await render(req, coach: coach, athlete: athlete, form: form, errors: errors) }
        try await PlannedWorkout(
            coach: coach.requireID(), athlete: athlete.requireID(), day: day.description, sport: sport,
            duration: minutes.map { $0 * 60 }, distance: distance,
            description: description
        ).create(on: req.db)
        try await Notification.send(
            to: [athlete.requireID()], from: coach.id, kind: .sessionPlanned,
            text: t(
                "{name} planned {sport} for you on {day}.", coach.displayName, sport.label.lowercased(), Format.dayAndMonth(day)),
            link: SiteURL.home.path, on: req.db)
        req.flash(.success, t("Planned {sport} on {date} for {name}.", sport.label.lowercased(), day.description, athlete.displayName))
        return req.redirect(to: .athlete(username: athlete.username))
    }

    func deletePlan(req: Request) async throws -> Response {
        let coach = try req.requireUser()
        let athlete = try await AthleteAccess.load(req, coach: coach).athlete
        guard let id = req.parameters.get("id", as: UUID.self),
            let plan = try await PlannedWorkout.query(on: req.db).filter(\.$id == id).filter(\.$athlete.$id == athlete.requireID()).first()
        else {
            throw Abort(.notFound)
        }
        // An athlete may have several coaches; each removes only what they planned.
        guard plan.$coach.id == coach.id else { throw Abort(.forbidden, reason: t("Only the coach who planned this session can remove it.")) }
        try await plan.delete(on: req.db)
        req.flash(.success, t("Removed the planned session on {date}.", plan.day))
        return req.redirect(to: .athlete(username: athlete.username))
    }
}
