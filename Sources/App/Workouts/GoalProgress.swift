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

    /// The current period's start (as a key) and its workouts, for a person.
    static func current(_ period: Goal.Period, user: User, now: Date, on db: any Database) async throws -> (key: String, workouts: [Workout]) {
        let today = LocalTime.day(of: now, zone: user.timeZone)
        let start = period.report.start(containing: today)
        let end = period.report.next(after: start)
        func ms(_ day: CalendarDate) -> Int64 {
            Int64((LocalTime.instant(day: day.description, time: "00:00", zone: user.timeZone) ?? now).timeIntervalSince1970 * 1000)
        }
        let workouts = try await Workout.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$endMS != nil)
            .filter(\.$startMS >= ms(start)).filter(\.$startMS < ms(end)).all()
        return (start.description, workouts)
    }

    /// Every goal of the person with its progress in the current period.
    static func all(for user: User, now: Date, on db: any Database) async throws -> [GoalProgress] {
        let goals = try await Goal.query(on: db).filter(\.$user.$id == user.requireID()).sort(\.$createdAt).all()
        var periods: [Goal.Period: [Workout]] = [:]
        for period in Set(goals.map(\.period)) { periods[period] = try await current(period, user: user, now: now, on: db).workouts }
        let imperial = user.units == .imperial
        return try goals.map { goal in
            let done = amount(goal.metric, of: periods[goal.period] ?? [])
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
        for goal in goals {
            let (key, workouts) = try await current(goal.period, user: user, now: now, on: db)
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
