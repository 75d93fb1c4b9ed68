import Foundation

/// How a completed session compares with the one a coach planned. Green within ±20 % of the
/// planned duration (or distance, when only that was planned), yellow within 50–80 % or
/// 120–150 %, red beyond those or when nothing was done.
public enum Compliance: String, Sendable, Equatable, CaseIterable {
    case green, yellow, red

    /// `done` and `planned` in the same unit (seconds or metres); nil `done` is a missed session.
    public init(planned: Double, done: Double?) {
        guard let done, planned > 0, done > 0 else { self = .red; return }
        let ratio = done / planned
        switch ratio {
        case 0.8...1.2: self = .green
        case 0.5..<0.8, 1.2...1.5: self = .yellow
        default: self = .red
        }
    }

    public var label: String {
        switch self {
        case .green: t("on plan")
        case .yellow: t("partly")
        case .red: t("off plan")
        }
    }
}

/// Acute and chronic training load from daily TRIMP totals: the 7-day sum against the average
/// week of the last 28 days. A ratio above 1.5 means the last week was much harder than the
/// athlete is used to, the point where injury risk is usually said to climb.
public struct TrainingLoad: Sendable, Equatable {
    public let acute: Double
    public let chronicWeekly: Double

    public init(acute: Double, chronic28: Double) {
        self.acute = acute
        self.chronicWeekly = chronic28 / 4
    }

    public var ratio: Double? { chronicWeekly > 0 ? acute / chronicWeekly : nil }
    public var overreaching: Bool { (ratio ?? 0) > 1.5 }
}
