import FieldhouseKit
import Foundation

/// How workout numbers read on pages, in the person's units.
struct WorkoutFormat {
    let imperial: Bool
    let zone: TimeZone

    init(_ user: User) {
        imperial = user.units == .imperial
        zone = TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!
    }

    /// "1:02:03" or "45:12".
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600, m = total % 3600 / 60, s = total % 60
        let mm = m < 10 && h > 0 ? "0\(m)" : "\(m)", ss = s < 10 ? "0\(s)" : "\(s)"
        return h > 0 ? "\(h):\(mm):\(ss)" : "\(mm):\(ss)"
    }

    func distance(_ metres: Double?) -> String {
        guard let metres else { return "–" }
        return imperial ? String(format: "%.2f mi", metres / 1609.344) : String(format: "%.2f km", metres / 1000)
    }

    func speed(_ metresPerSecond: Double?) -> String {
        guard let metresPerSecond else { return "–" }
        return imperial ? String(format: "%.1f mph", metresPerSecond * 2.236936) : String(format: "%.1f km/h", metresPerSecond * 3.6)
    }

    /// Minutes per kilometre (or mile): "5:12 /km".
    func pace(_ metresPerSecond: Double?) -> String {
        guard let metresPerSecond, metresPerSecond > 0.3 else { return "–" }
        let seconds = (imperial ? 1609.344 : 1000) / metresPerSecond
        return Self.duration(seconds) + (imperial ? " /mi" : " /km")
    }

    func elevation(_ metres: Double?) -> String {
        guard let metres else { return "–" }
        return imperial ? "\(Int((metres * 3.28084).rounded())) ft" : "\(Int(metres.rounded())) m"
    }

    /// "Sat 21 Nov 2026, 07:30" in the person's zone.
    func when(_ milliseconds: Int64) -> String {
        let clock = WallClock(Date(timeIntervalSince1970: Double(milliseconds) / 1000), zone: zone)
        return "\(clock.shortDay) \(clock.year), \(clock.clock)"
    }

    var splitLength: Double { imperial ? 1609.344 : 1000 }
    var splitUnit: String { imperial ? "mi" : "km" }
}
