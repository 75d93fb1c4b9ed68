import Foundation

/// "This week" and "this month" as people mean them: from Monday 00:00, or the 1st at 00:00, in
/// their own time zone, to now.
enum CalendarPeriod: String, CaseIterable, Sendable {
    case week, month

    func start(zone: String, now: Date) -> Date {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone.named(zone)
        return calendar.dateInterval(of: self == .week ? .weekOfYear : .month, for: now)?.start ?? now
    }

    var label: String {
        switch self {
        case .week: t("This week")
        case .month: t("This month")
        }
    }
}
