import FieldhouseKit
import Fluent
import Vapor

/// `/coach/week?start=2026-11-16`: every athlete's planned and completed sessions for one week on
/// one page, with each plan's compliance.
struct CoachWeekController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CoachPath.coachWeek, use: page)
    }

    struct Cell: Encodable {
        /// The day, repeated in each cell so a phone's card layout can name it (data-label).
        var day = ""
        let items: [TrainingItem]
    }

    struct Row: Encodable {
        let username: String
        let name: String
        let cells: [Cell]
        let summary: String
    }

    struct Page: Encodable {
        let layout: Layout
        let title: String
        let days: [String]
        let rows: [Row]
        let previous: String
        let next: String
        let error: String?
    }

    func page(req: Request) async throws -> Response {
        let coach = try req.requireUser()
        let format = Format(coach)
        let today = req.clock.today(in: coach.timeZone)
        var error: String?
        var start = ReportPeriod.week.start(containing: today)
        if let typed = req.query[String.self, at: "start"] {
            if let day = CalendarDate(iso: typed) {
                start = ReportPeriod.week.start(containing: day)
            } else {
                error = t("Give the week as a date like 2026-11-16.")
            }
        }
        let days = (0..<7).map { start.adding(days: $0) }
        let squad = try await SquadTraining.load(coach: coach.requireID(), on: req.db)
        let from = Int64(start.adding(days: -1).dayNumber) * 86_400_000, to = Int64(start.adding(days: 8).dayNumber) * 86_400_000
        let done = try await squad.workouts(from: from, to: to, on: req.db)
        let plans = try await squad.plans(from: days[0].description, through: days[6].description, on: req.db)
        let rows = squad.athletes.enumerated().map { index, athlete in
            var planned = 0, onPlan = 0
            let cells = days.map { day in
                let key = day.description
                var items: [TrainingItem] = []
                for plan in plans where plan.athlete == index && plan.day == key {
                    planned += 1
                    let grade = SquadTraining.compliance(of: plan, done: done, today: today.description)
                    if grade == .green { onPlan += 1 }
                    let amount = [plan.duration.map { Format.duration($0) }, plan.distance.map { format.distance($0) }].compactMap { $0 }
                    items.append(
                        .init(
                            text: t("Plan: {sport} {amount}", plan.sport.label, amount.joined(separator: ", ")), url: nil, planID: nil,
                            grade: grade?.rawValue, gradeLabel: grade?.label))
                }
                for workout in done where workout.athlete == index && workout.day == key {
                    items.append(
                        .init(
                            text: "\(workout.sport.label) \(Format.duration(workout.duration))" + (workout.distance.map { ", \(format.distance($0))" } ?? ""),
                            url: nil, planID: nil, grade: nil, gradeLabel: nil))
                }
                return Cell(items: items)
            }
            return Row(
                username: athlete.username, name: athlete.name, cells: cells,
                summary: planned == 0 ? t("nothing planned") : t("{done} of {planned} on plan", onPlan, planned))
        }
        let dayLabels = days.map(Format.weekdayAndDayOfMonth)
        let labelled = rows.map { row in
            Row(
                username: row.username, name: row.name,
                cells: zip(row.cells, dayLabels).map { cell, label in Cell(day: label, items: cell.items) }, summary: row.summary)
        }
        let page = Page(
            layout: req.layout(title: t("Weekly review")),
            title: t("Week of {day}", Format.day(start)),
            days: dayLabels, rows: labelled,
            previous: SiteURL.coachWeek.with([("start", "\(start.adding(days: -7))")]), next: SiteURL.coachWeek.with([("start", "\(start.adding(days: 7))")]),
            error: error)
        return try await req.view.render("coaching/week", page).encodeResponse(status: error == nil ? .ok : .unprocessableEntity, for: req)
    }
}
