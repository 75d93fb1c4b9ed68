/// A date without a time of day or zone, such as a birthday: "2009-04-23".
public struct CalendarDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...CalendarDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses the ISO 8601 form an HTML `<input type="date">` sends. Nothing else is accepted.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String { Self.iso(year: year, month: month, day: day) }

    /// "2026-11-21": the one way a day is written for machines (forms, SQL, files, URLs), also for
    /// parts not checked to be a real day (a birthday moved back some years, "2008-02-29", is still
    /// the right bound for a comparison). By hand: `String(format:)` goes through Foundation's
    /// formatter, and the coach's week writes a day for every workout of the squad.
    public static func iso(year: Int, month: Int, day: Int) -> String {
        WallClock.pad(year, 4) + "-" + WallClock.pad(month, 2) + "-" + WallClock.pad(day, 2)
    }

    /// Whole years from `self` (a birth date) to `date`. A 29 February birthday counts on 1 March
    /// in years without one.
    public func age(on date: CalendarDate) -> Int {
        var years = date.year - year
        if (date.month, date.day) < (month, day) { years -= 1 }
        return max(0, years)
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// The age bands teams and games are organised by. Showing the band instead of a birth date lets a
/// profile say "15–17" without revealing the birthday.
public enum AgeGroup: String, CaseIterable, Sendable, Codable {
    case under12 = "u12"
    case from12to14 = "12-14"
    case from15to17 = "15-17"
    case adult = "18+"
    case veteran = "35+"
    case any

    public var label: String {
        switch self {
        case .under12: t("Under 12")
        case .from12to14: "12–14"
        case .from15to17: "15–17"
        case .adult: "18+"
        case .veteran: "35+"
        case .any: t("Any age")
        }
    }

    /// The narrowest band an age belongs to (someone of 40 is in 35+, which is also 18+).
    public static func of(age: Int) -> AgeGroup {
        switch age {
        case ..<12: .under12
        case 12...14: .from12to14
        case 15...17: .from15to17
        case 18..<35: .adult
        default: .veteran
        }
    }

    /// Whether someone of `age` may take part in something meant for this band.
    public func admits(age: Int) -> Bool {
        switch self {
        case .any: true
        case .adult: age >= 18
        case .veteran: age >= 35
        default: Self.of(age: age) == self
        }
    }
}
