import FieldhouseKit
import Fluent
import Foundation

/// A daily or weekly target for distance, duration, steps or calories.
final class Goal: Model, @unchecked Sendable {
    static let schema = "goals"
    static let maxPerPerson = 10

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Enum(key: "period") var period: Period
    @Enum(key: "metric") var metric: Metric
    @Field(key: "target") var target: Double
    @Field(key: "enabled") var enabled: Bool
    /// The period ("2026-11-16") whose reaching was last announced, so it is announced once.
    @OptionalField(key: "reached_period") var reachedPeriod: String?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    enum Period: String, Codable, CaseIterable, Sendable {
        case day, week
        var report: ReportPeriod { self == .day ? .day : .week }
        var label: String {
            switch self {
            case .day: t("Daily")
            case .week: t("Weekly")
            }
        }
    }

    enum Metric: String, Codable, CaseIterable, Sendable {
        case distance, duration, steps, calories

        /// What a person types: kilometres (or miles), minutes, steps, kilocalories.
        func unit(imperial: Bool) -> String {
            switch self {
            case .distance: imperial ? "mi" : "km"
            case .duration: "min"
            case .steps: t("steps")
            case .calories: "kcal"
            }
        }

        /// The metric's name, as the goal form lists it.
        var label: String {
            switch self {
            case .distance: t("Distance")
            case .duration: t("Duration")
            case .steps: t("Steps")
            case .calories: t("Calories")
            }
        }

        /// The least a goal may ask for, in the typed unit: a goal of a millionth of a step is a typing mistake.
        var minimum: Double {
            switch self {
            case .distance: 0.1
            case .duration, .steps, .calories: 1
            }
        }

        /// The most one period may ask for, in the typed unit.
        var limit: Double {
            switch self {
            case .distance: 2000
            case .duration: 10_080
            case .steps: 1_000_000
            case .calories: 100_000
            }
        }
    }

    /// "Weekly duration": the goal's name on the goals page and the home page.
    var name: String {
        switch (period, metric) {
        case (.day, .distance): t("Daily distance")
        case (.day, .duration): t("Daily duration")
        case (.day, .steps): t("Daily steps")
        case (.day, .calories): t("Daily calories")
        case (.week, .distance): t("Weekly distance")
        case (.week, .duration): t("Weekly duration")
        case (.week, .steps): t("Weekly steps")
        case (.week, .calories): t("Weekly calories")
        }
    }

    /// "Weekly duration goal": the goal's line among a workout's numbers.
    var goalLabel: String {
        switch (period, metric) {
        case (.day, .distance): t("Daily distance goal")
        case (.day, .duration): t("Daily duration goal")
        case (.day, .steps): t("Daily steps goal")
        case (.day, .calories): t("Daily calories goal")
        case (.week, .distance): t("Weekly distance goal")
        case (.week, .duration): t("Weekly duration goal")
        case (.week, .steps): t("Weekly steps goal")
        case (.week, .calories): t("Weekly calories goal")
        }
    }

    init() {}

    init(user: UUID, period: Period, metric: Metric, target: Double) {
        self.$user.id = user
        self.period = period
        self.metric = metric
        self.target = target
        self.enabled = true
    }
}
