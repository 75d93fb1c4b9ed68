import Foundation

/// The calendar date and time of an instant at a fixed UTC offset, by plain arithmetic on the day
/// count (Howard Hinnant's civil-from-days). Pages format many times each; Calendar and
/// Date.FormatStyle cost ten times more for the same answer.
public struct WallClock: Equatable, Sendable {
    public let year, month, day, hour, minute, second: Int
    /// 0 = Sunday … 6 = Saturday.
    public let weekday: Int

    public init(_ date: Date, secondsFromGMT offset: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        // 1 January 1970 was a Thursday.
        weekday = ((days % 7) + 7 + 4) % 7
    }

    /// In `zone`, with its offset at that instant (summer time included).
    public init(_ date: Date, zone: TimeZone) {
        self.init(date, secondsFromGMT: zone.secondsFromGMT(for: date))
    }

    /// Weekday and month names as the current language abbreviates them (Portuguese writes them
    /// in lower case: "qui 26 nov"). The app reads these lists only in `Format`, which writes every
    /// day and month with them (`make lint` refuses them elsewhere).
    public static var shortWeekdays: [String] { Language.current == .en ? englishWeekdays : portugueseWeekdays }
    public static var shortMonths: [String] { Language.current == .en ? englishMonths : portugueseMonths }
    /// Whole weekday names, Sunday first: "Thursday", "quinta-feira".
    public static var weekdays: [String] { Language.current == .en ? englishWholeWeekdays : portugueseWholeWeekdays }
    /// Whole month names: "November", "novembro".
    public static var months: [String] { Language.current == .en ? englishWholeMonths : portugueseWholeMonths }

    private static let englishWeekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let portugueseWeekdays = ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"]
    private static let portugueseMonths = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"]
    private static let englishWholeWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let englishWholeMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    private static let portugueseWholeWeekdays = ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"]
    private static let portugueseWholeMonths = [
        "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
    ]

    /// "19:30", or "7:30 pm" for a reader of the 12-hour clock (`ClockStyle.current`).
    public var clock: String { Self.clock(hour: hour, minute: minute) }

    /// A time of day as the reader writes it: "19:30" or "7:30 pm". `hour` is 0–23.
    public static func clock(hour: Int, minute: Int) -> String {
        switch ClockStyle.current {
        case .twentyFourHour:
            return pad(hour, 2) + ":" + pad(minute, 2)
        case .twelveHour:
            let english = Language.current == .en
            let half = hour < 12 ? (english ? "am" : "a.m.") : (english ? "pm" : "p.m.")
            return "\(hour % 12 == 0 ? 12 : hour % 12):" + pad(minute, 2) + " " + half
        }
    }

    public static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
