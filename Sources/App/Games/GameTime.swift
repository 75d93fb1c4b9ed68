import FieldhouseKit
import Foundation

/// How a game's time reads on a page: in the venue's zone, with the zone named, since a player
/// from elsewhere must not mistake it for their own clock.
enum GameTime {
    /// The reader's locale for long dates ("quinta-feira, 26 de novembro de 2026").
    private static var locale: Locale { Language.current.locale }

    /// "Thursday 26 November 2026"
    static func day(_ date: Date, zone: String) -> String {
        date.formatted(Date.FormatStyle(locale: locale, timeZone: tz(zone)).weekday(.wide).day().month(.wide).year())
    }

    /// "Thu 26 Nov"
    static func shortDay(_ date: Date, zone: String) -> String {
        let clock = WallClock(date, zone: tz(zone))
        return t("{weekday} {day} {month}", shortWeekday(clock.weekday), clock.day, shortMonth(clock.month))
    }

    /// "Thu", from 0 = Sunday (as `WallClock.weekday`).
    static func shortWeekday(_ weekday: Int) -> String {
        switch weekday {
        case 0: t("Sun")
        case 1: t("Mon")
        case 2: t("Tue")
        case 3: t("Wed")
        case 4: t("Thu")
        case 5: t("Fri")
        default: t("Sat")
        }
    }

    /// "Nov", from 1 = January.
    static func shortMonth(_ month: Int) -> String {
        switch month {
        case 1: t("Jan")
        case 2: t("Feb")
        case 3: t("Mar")
        case 4: t("Apr")
        case 5: t("May")
        case 6: t("Jun")
        case 7: t("Jul")
        case 8: t("Aug")
        case 9: t("Sep")
        case 10: t("Oct")
        case 11: t("Nov")
        default: t("Dec")
        }
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

    private static func tz(_ zone: String) -> TimeZone { TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")! }
}
