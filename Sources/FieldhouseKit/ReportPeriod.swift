import Foundation

/// Calendar periods for reports: days, weeks starting on Monday (ISO 8601), and months.
public enum ReportPeriod: String, CaseIterable, Sendable {
    case day, week, month

    /// The first day of the period that contains `date`.
    public func start(containing date: CalendarDate) -> CalendarDate {
        switch self {
        case .day: return date
        case .week: return date.adding(days: -((date.weekday + 6) % 7))
        case .month: return CalendarDate(year: date.year, month: date.month, day: 1)!
        }
    }

    /// The first day of the period after the one starting at `start`.
    public func next(after start: CalendarDate) -> CalendarDate {
        switch self {
        case .day: return start.adding(days: 1)
        case .week: return start.adding(days: 7)
        case .month:
            return start.month == 12 ? CalendarDate(year: start.year + 1, month: 1, day: 1)! : CalendarDate(year: start.year, month: start.month + 1, day: 1)!
        }
    }

    /// The first day of the period before the one starting at `start`.
    public func previous(before start: CalendarDate) -> CalendarDate {
        switch self {
        case .day: return start.adding(days: -1)
        case .week: return start.adding(days: -7)
        case .month:
            return start.month == 1 ? CalendarDate(year: start.year - 1, month: 12, day: 1)! : CalendarDate(year: start.year, month: start.month - 1, day: 1)!
        }
    }

    /// The last `count` periods up to and including the one containing `date`, oldest first.
    public func last(_ count: Int, endingAt date: CalendarDate) -> [CalendarDate] {
        var starts = [start(containing: date)]
        while starts.count < count { starts.insert(previous(before: starts[0]), at: 0) }
        return starts
    }
}

extension CalendarDate {
    /// Days since 1970-01-01.
    public var dayNumber: Int { SampleTime.daysFromCivil(year: year, month: month, day: day) }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int { ((dayNumber % 7) + 7 + 4) % 7 }

    /// The date `number` days after 1970-01-01.
    public static func fromDayNumber(_ number: Int) -> CalendarDate {
        let clock = WallClock(Date(timeIntervalSince1970: Double(number) * 86_400), secondsFromGMT: 0)
        return CalendarDate(year: clock.year, month: clock.month, day: clock.day)!
    }

    public func adding(days: Int) -> CalendarDate {
        let clock = WallClock(Date(timeIntervalSince1970: Double(dayNumber + days) * 86_400), secondsFromGMT: 0)
        return CalendarDate(year: clock.year, month: clock.month, day: clock.day)!
    }
}
