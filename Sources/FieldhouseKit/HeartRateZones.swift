import Foundation

/// Five heart-rate zones set by a person or their coach: lower limits as percentages of the
/// maximum, or of the heart-rate reserve (Karvonen: resting + % × (maximum − resting)).
public struct HeartRateZones: Equatable, Sendable {
    public enum Basis: String, Sendable, CaseIterable {
        case maximum = "max"
        case reserve
    }

    public static let defaultPercents = [50, 60, 70, 80, 90]

    public var maximum: Int
    public var resting: Int?
    public var basis: Basis
    /// Lower limits of zones 1–5, strictly increasing, each 1–99.
    public var percents: [Int]

    public init(maximum: Int, resting: Int?, basis: Basis, percents: [Int]) {
        self.maximum = maximum
        self.resting = resting
        self.basis = basis
        self.percents = percents
    }

    /// The lower limit of each zone in beats per minute (0 for numbers no heart has: the limits
    /// are only meaningful for zones `problems` finds sound).
    public var limits: [Int] {
        percents.map { percent in
            let share = Double(percent) / 100
            let bpm: Double =
                switch basis {
                case .maximum: Double(maximum) * share
                case .reserve: Double(resting ?? 60) + share * (Double(maximum) - Double(resting ?? 60))
                }
            return Int(exactly: bpm.rounded()).map { Swift.max(0, Swift.min($0, 1_000)) } ?? 0
        }
    }

    /// What is wrong with a set of numbers a person typed, by field; empty when they are sound.
    public static func problems(maximum: Int?, resting: Int?, basis: Basis, percents: [Int?]) -> [String: String] {
        var problems: [String: String] = [:]
        if let maximum {
            if !(100...230).contains(maximum) { problems["max_hr"] = t("Enter a maximum between 100 and 230 bpm.") }
        } else {
            problems["max_hr"] = t("Enter the maximum heart rate in beats per minute.")
        }
        if let resting {
            if !(30...110).contains(resting) {
                problems["resting_hr"] = t("Enter a resting heart rate between 30 and 110 bpm.")
            } else if let maximum, resting >= maximum {
                problems["resting_hr"] = t("The resting heart rate must be below the maximum.")
            }
        } else if basis == .reserve {
            problems["resting_hr"] = t("Zones from the heart-rate reserve need the resting heart rate.")
        }
        var previous = 0
        for (index, percent) in percents.enumerated() {
            let key = "zone\(index + 1)"
            guard let percent else { problems[key] = t("Enter a percentage."); continue }
            if !(1...99).contains(percent) {
                problems[key] = t("Enter a percentage from 1 to 99.")
            } else if percent <= previous {
                problems[key] = t("Each zone must start above the one before ({percent} %).", previous)
            }
            previous = max(previous, percent)
        }
        return problems
    }
}
