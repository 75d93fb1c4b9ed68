import Foundation

/// Wall-clock times at a place: games are typed and shown in their venue's time zone and stored
/// as instants.
public enum LocalTime {
    /// The instant of `day` ("2026-11-26") at `time` ("19:30") in `zone`, or nil when any part is not
    /// a real date, time or zone. A time that does not exist (the hour skipped when clocks go forward)
    /// moves forward to the next valid time, as a wall clock would.
    public static func instant(day: String, time: String, zone: String) -> Date? {
        guard let date = CalendarDate(iso: day), let tz = TimeZone.known(zone) else { return nil }
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        return calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute))
    }

    /// ("2026-11-26", "19:30") for `instant` in `zone`.
    public static func parts(of instant: Date, zone: String) -> (day: String, time: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.named(zone)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return (CalendarDate.iso(year: c.year!, month: c.month!, day: c.day!), WallClock.pad(c.hour!, 2) + ":" + WallClock.pad(c.minute!, 2))
    }

    /// The calendar date of `instant` in UTC: what ages are computed on. An hour of zone offset only
    /// matters on a birthday itself.
    public static func utcDay(of instant: Date) -> CalendarDate { day(of: instant, zone: "UTC") }

    /// The calendar date of `instant` in `zone` (UTC when the zone is unknown).
    public static func day(of instant: Date, zone: String) -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.named(zone)
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        // Foundation's calendar always yields a real date, so this cannot fail.
        return CalendarDate(year: c.year!, month: c.month!, day: c.day!)!
    }

    /// The first instant of the day after the one `instant` falls on in `zone`: when "today" ends there.
    public static func endOfDay(containing instant: Date, zone: String) -> Date {
        let next = day(of: instant, zone: zone).adding(days: 1)
        return LocalTime.instant(day: next.description, time: "00:00", zone: TimeZone.known(zone) == nil ? "UTC" : zone)
            ?? instant.addingTimeInterval(86_400)
    }
}
