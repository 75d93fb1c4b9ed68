import FieldhouseKit
import Fluent
import Foundation

/// How far each goal is in its current period, and the one-time "goal reached" notification.
struct GoalProgress: Encodable {
    let id: String
    /// "Weekly duration"
    let name: String
    /// "Weekly duration: 300 min"
    let title: String
    /// "310 min of 300 min this week (103 %)"
    let progress: String
    let percent: Int
    let enabled: Bool

    /// Targets are stored in metres, seconds, steps and kilocalories.
    static func amount(_ metric: Goal.Metric, of workouts: [Workout]) -> Double {
        switch metric {
        case .distance: workouts.compactMap(\.distance).reduce(0, +)
        case .duration: workouts.map(\.duration).reduce(0, +)
        case .steps: Double(workouts.compactMap(\.steps).reduce(0, +))
        case .calories: workouts.compactMap(\.calories).reduce(0, +)
        }
    }

    static func describe(_ metric: Goal.Metric, _ value: Double, imperial: Bool) -> String {
        switch metric {
        case .distance: Format.number(value / (imperial ? Format.metresPerMile : 1000), decimals: 1) + (imperial ? " mi" : " km")
        case .duration: "\(Format.whole(value / 60)) min"
        case .steps: t("{number} steps", Format.whole(value))
        case .calories: "\(Format.whole(value)) kcal"
        }
    }

    /// A person's finished workouts of this week, and of today within it: both goal periods from
    /// one read (a day always lies in its week).
    struct PeriodWorkouts {
        let day: (key: String, workouts: [Workout])
        let week: (key: String, workouts: [Workout])

        func of(_ period: Goal.Period) -> (key: String, workouts: [Workout]) { period == .day ? day : week }

        static func load(user: User, now: Date, on db: any Database) async throws -> PeriodWorkouts {
            let today = LocalTime.day(of: now, zone: user.timeZone)
            func ms(_ day: CalendarDate) -> Int64 {
                Int64((LocalTime.instant(day: day.description, time: "00:00", zone: user.timeZone) ?? now).timeIntervalSince1970 * 1000)
            }
            let (dayStart, weekStart) = (Goal.Period.day.report.start(containing: today), Goal.Period.week.report.start(containing: today))
            let (dayEnd, weekEnd) = (ms(Goal.Period.day.report.next(after: dayStart)), ms(Goal.Period.week.report.next(after: weekStart)))
            let workouts = try await Workout.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$endMS != nil)
                .filter(\.$startMS >= ms(weekStart)).filter(\.$startMS < weekEnd).all()
            let dayFrom = ms(dayStart)
            return PeriodWorkouts(
                day: (dayStart.description, workouts.filter { $0.startMS >= dayFrom && $0.startMS < dayEnd }),
                week: (weekStart.description, workouts))
        }
    }

    /// Every goal of the person with its progress in the current period; `periods` when the caller
    /// has read them already.
    static func all(for user: User, now: Date, periods: PeriodWorkouts? = nil, on db: any Database) async throws -> [GoalProgress] {
        let goals = try await Goal.query(on: db).filter(\.$user.$id == user.requireID()).sort(\.$createdAt).all()
        var read = periods
        if read == nil, !goals.isEmpty { read = try await PeriodWorkouts.load(user: user, now: now, on: db) }
        let imperial = user.units == .imperial
        return try goals.map { goal in
            let done = amount(goal.metric, of: read?.of(goal.period).workouts ?? [])
            let (doneText, target, percent) = (
                describe(goal.metric, done, imperial: imperial), describe(goal.metric, goal.target, imperial: imperial), Format.percent(done, of: goal.target)
            )
            return GoalProgress(
                id: try goal.requireID().uuidString.lowercased(), name: goal.name,
                title: "\(goal.name): \(target)",
                progress: goal.period == .day
                    ? t("{done} of {target} today ({percent} %)", doneText, target, percent)
                    : t("{done} of {target} this week ({percent} %)", doneText, target, percent),
                percent: percent, enabled: goal.enabled)
        }
    }

    /// After a workout was added or finished: announce each enabled goal reached for the first
    /// time in its current period.
    static func announce(for user: User, now: Date, on db: any Database) async throws {
        let goals = try await Goal.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$enabled == true).all()
        guard !goals.isEmpty else { return }
        let periods = try await PeriodWorkouts.load(user: user, now: now, on: db)
        for goal in goals {
            let (key, workouts) = periods.of(goal.period)
            guard goal.reachedPeriod != key, amount(goal.metric, of: workouts) >= goal.target else { continue }
            goal.reachedPeriod = key
            try await goal.save(on: db)
            let (period, metric, target, imperial) = (goal.period, goal.metric, goal.target, user.units == .imperial)
            try await Notification.send(
                to: [user.requireID()], from: nil, kind: .goalReached,
                text: period == .day
                    ? t("You reached your daily goal of {target}. Well done!", describe(metric, target, imperial: imperial))
                    : t("You reached your weekly goal of {target}. Well done!", describe(metric, target, imperial: imperial)),
                link: SiteURL.goals.path, on: db)
        }
    }
}
