import FieldhouseKit
import Foundation

/// How a game's time reads on a page: in the venue's zone, with the zone named, since a player
/// from elsewhere must not mistake it for their own clock.
enum GameTime {
    /// "Thursday, 26 November 2026" ("quinta-feira, 26 de novembro de 2026")
    static func day(_ date: Date, zone: String) -> String { Format.longDay(date, zone: tz(zone)) }

    /// "Thu 26 Nov" ("qui 26 nov"), as `Format` writes every day.
    static func shortDay(_ date: Date, zone: String) -> String {
        Format.weekdayAndDay(WallClock(date, zone: tz(zone)))
    }

    /// "19:30"
    static func clock(_ date: Date, zone: String) -> String {
        WallClock(date, zone: tz(zone)).clock
    }

    /// "19:30–21:00 (CET)"
    static func range(_ start: Date, _ end: Date, zone: String) -> String {
        let abbreviation = tz(zone).abbreviation(for: start) ?? zone
        return "\(clock(start, zone: zone))–\(clock(end, zone: zone)) (\(abbreviation))"
    }

    private static func tz(_ zone: String) -> TimeZone { TimeZone.named(zone) }
}
