import Foundation

/// The badges a person can earn, and the rules that decide them from plain facts about their
/// activity. Pure: the app gathers the facts, this says which badges they add up to.
public enum BadgeKind: String, CaseIterable, Sendable, Codable {
    case firstWorkout = "first_workout"
    case activeHour = "active_hour"
    case streak3 = "streak_3"
    case streak7 = "streak_7"
    case streak30 = "streak_30"
    case hundredKilometres = "hundred_km_month"
    case firstChallenge = "first_challenge"
    case tenChallenges = "ten_challenges"
    case tenGames = "ten_games"
    case firstCoachPlan = "first_coach_plan"

    public var title: String {
        switch self {
        case .firstWorkout: t("First workout")
        case .activeHour: t("An active hour")
        case .streak3: t("3-day streak")
        case .streak7: t("7-day streak")
        case .streak30: t("30-day streak")
        case .hundredKilometres: t("100 km in a month")
        case .firstChallenge: t("First challenge completed")
        case .tenChallenges: t("10 challenges completed")
        case .tenGames: t("10 games played")
        case .firstCoachPlan: t("First coach's session done")
        }
    }

    /// How it is earned, in a sentence.
    public var rule: String {
        switch self {
        case .firstWorkout: t("Log a first workout.")
        case .activeHour: t("Be active for 60 minutes in one day.")
        case .streak3: t("Be active for 60 minutes a day, 3 days in a row.")
        case .streak7: t("Be active for 60 minutes a day, 7 days in a row.")
        case .streak30: t("Be active for 60 minutes a day, 30 days in a row.")
        case .hundredKilometres: t("Cover 100 km in one calendar month.")
        case .firstChallenge: t("Have a reply to a challenge accepted.")
        case .tenChallenges: t("Have 10 replies to challenges accepted.")
        case .tenGames: t("Play in 10 games.")
        case .firstCoachPlan: t("Do a session your coach planned, on its day.")
        }
    }

    /// The sticker drawn for it (a symbol from the page's font, never an image to fetch).
    public var symbol: String {
        switch self {
        case .firstWorkout: "★"
        case .activeHour: "◷"
        case .streak3, .streak7, .streak30: "➚"
        case .hundredKilometres: "▲"
        case .firstChallenge, .tenChallenges: "✪"
        case .tenGames: "◉"
        case .firstCoachPlan: "✔"
        }
    }
}

/// What a person did, as the badge rules need it.
public struct ActivityFacts: Sendable {
    /// Active minutes by day ("2026-11-23") in the person's time zone.
    public var minutesByDay: [String: Double] = [:]
    /// Metres by month ("2026-11") in the person's time zone.
    public var metresByMonth: [String: Double] = [:]
    public var workouts = 0
    public var challengesCompleted = 0
    public var gamesPlayed = 0
    public var coachSessionsDone = 0

    public init() {}

    /// Adds one workout that started on `day` ("2026-11-23").
    public mutating func addWorkout(day: String, seconds: Double, metres: Double?) {
        workouts += 1
        if seconds.isFinite, seconds > 0 { minutesByDay[day, default: 0] += seconds / 60 }
        if let metres, metres.isFinite, metres > 0 { metresByMonth[String(day.prefix(7)), default: 0] += metres }
    }
}

public enum BadgeRules {
    public static let activeMinutes = 60.0

    public static func earned(_ facts: ActivityFacts) -> Set<BadgeKind> {
        var badges: Set<BadgeKind> = []
        if facts.workouts > 0 { badges.insert(.firstWorkout) }
        let streak = longestStreak(facts.minutesByDay, minimum: activeMinutes)
        if streak >= 1 { badges.insert(.activeHour) }
        if streak >= 3 { badges.insert(.streak3) }
        if streak >= 7 { badges.insert(.streak7) }
        if streak >= 30 { badges.insert(.streak30) }
        if facts.metresByMonth.values.contains(where: { $0 >= 100_000 }) { badges.insert(.hundredKilometres) }
        if facts.challengesCompleted >= 1 { badges.insert(.firstChallenge) }
        if facts.challengesCompleted >= 10 { badges.insert(.tenChallenges) }
        if facts.gamesPlayed >= 10 { badges.insert(.tenGames) }
        if facts.coachSessionsDone >= 1 { badges.insert(.firstCoachPlan) }
        return badges
    }

    /// The most days in a row with at least `minimum` minutes each. Days that are not dates are
    /// ignored; linear in the number of days after sorting.
    public static func longestStreak(_ minutesByDay: [String: Double], minimum: Double) -> Int {
        let days = minutesByDay.filter { $0.value >= minimum }.keys.compactMap(CalendarDate.init(iso:)).sorted()
        var best = 0, run = 0
        var previous: CalendarDate?
        for day in days {
            run = previous.map { $0.adding(days: 1) == day } ?? false ? run + 1 : 1
            best = max(best, run)
            previous = day
        }
        return best
    }
}
