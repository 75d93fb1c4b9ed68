import FieldhouseKit
import Foundation

/// How numbers, distances, durations, paces, dates and times read on pages, in the viewer's units
/// and time zone. Every page formats through here, so a unit or a date reads the same everywhere.
struct Format {
    let imperial: Bool
    let zone: TimeZone

    init(imperial: Bool, zone: TimeZone) {
        self.imperial = imperial
        self.zone = zone
    }

    static let metresPerMile = 1609.344

    /// A short quote of someone's text, for a notification or a list line: 60 characters at most.
    static func excerpt(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }

    /// "1:02:03" or "45:12". Never traps: a value no workout can have reads as "–".
    static func duration(_ seconds: Double) -> String {
        guard let total = Int(exactly: seconds.rounded()), total >= 0, total < 100 * 365 * 86_400 else { return "–" }
        let h = total / 3600, m = total % 3600 / 60, s = total % 60
        let mm = m < 10 && h > 0 ? "0\(m)" : "\(m)", ss = s < 10 ? "0\(s)" : "\(s)"
        return h > 0 ? "\(h):\(mm):\(ss)" : "\(mm):\(ss)"
    }

    /// "1 h 30 min", "45 min": a span of time in words, for what is not a stopwatch reading.
    static func hoursAndMinutes(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        if hours == 0 { return t("{minutes} min", rest) }
        return rest == 0 ? t("{hours} h", hours) : t("{hours} h {minutes} min", hours, rest)
    }

    /// A whole number for a page ("312"), or "–" for a value no workout can have: never traps.
    static func whole(_ value: Double) -> String {
        Int(exactly: value.rounded()).map(String.init) ?? "–"
    }

    /// A typed limit as a person writes it: "0.1", "2,000" (in Portuguese "0,1", "2000").
    static func decimal(_ value: Double) -> String {
        guard value == value.rounded(), let whole = Int(exactly: value) else { return localised(String(value)) }
        return whole.grouped
    }

    /// How much of `whole` `part` is, in whole per cent (0 when there is no whole), at most 9,999.
    static func percent(_ part: Double, of whole: Double) -> Int {
        guard whole > 0, let share = Int(exactly: (part / whole * 100).rounded(.down)) else { return 0 }
        return min(max(share, 0), 9_999)
    }

    /// The zones a person can choose from, as the system names them ("Europe/Oslo"), UTC first. UTC
    /// is every account's zone until chosen, and Linux does not list it by that name: without it a
    /// select showed the first zone, Africa/Abidjan, and saving the profile stored that.
    static let timeZoneIdentifiers = ["UTC"] + TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") && !$0.hasPrefix("Etc/") }.sorted()

    /// A measured distance to the hundredth: "12.35 km", "7.67 mi".
    func distance(_ metres: Double?) -> String {
        guard let metres else { return "–" }
        return Self.distance(metres, imperial: imperial)
    }

    /// The length of a last, partial split: "996 m" (never "1.00 km" beside the whole kilometres),
    /// or miles to two places rounded down ("0.62 mi").
    func partialSplit(_ metres: Double) -> String {
        guard metres.isFinite, metres >= 0 else { return "–" }
        if imperial { return Self.number((metres / Self.metresPerMile * 100).rounded(.down) / 100, decimals: 2) + " mi" }
        return "\(Int(metres.rounded(.down))) m"
    }

    static func distance(_ metres: Double, imperial: Bool) -> String {
        localised(imperial ? String(format: "%.2f mi", metres / metresPerMile) : String(format: "%.2f km", metres / 1000))
    }

    /// A number written with `decimals` places and the language's decimal mark: "8.5" or "8,5".
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        return localised(String(format: "%.\(min(max(decimals, 0), 6))f", value))
    }

    /// "2.1 h" ("2,1 h"): hours to the tenth, as a chart labels its columns.
    static func hours(_ hours: Double) -> String { number(hours, decimals: 1) + " h" }

    /// `text` (numbers written by `String(format:)`, with a decimal point and no grouping) with
    /// the decimal mark of the current language: a comma in Portuguese.
    static func localised(_ text: String) -> String {
        Language.current == .en ? text : text.replacingOccurrences(of: ".", with: ",")
    }

    /// How far away something is, as precise as matters: "850 m", "3.2 km", "12 km", "4.5 mi".
    static func proximity(_ metres: Double, imperial: Bool) -> String {
        if imperial {
            let miles = metres / metresPerMile
            return localised(miles < 10 ? String(format: "%.1f mi", miles) : String(format: "%.0f mi", miles))
        }
        if metres < 1000 { return "\(Int((metres / 10).rounded()) * 10) m" }
        let km = metres / 1000
        return localised(km < 10 ? String(format: "%.1f km", km) : String(format: "%.0f km", km))
    }

    func speed(_ metresPerSecond: Double?) -> String {
        guard let metresPerSecond else { return "–" }
        return Self.localised(imperial ? String(format: "%.1f mph", metresPerSecond * 2.236936) : String(format: "%.1f km/h", metresPerSecond * 3.6))
    }

    /// Minutes per kilometre (or mile): "5:12 /km".
    func pace(_ metresPerSecond: Double?) -> String {
        guard let metresPerSecond, metresPerSecond > 0.3 else { return "–" }
        let seconds = (imperial ? Self.metresPerMile : 1000) / metresPerSecond
        return Self.duration(seconds) + (imperial ? " /mi" : " /km")
    }

    /// Seconds per kilometre (or mile) at a speed, for a pace chart; nil when slower than about
    /// 21 min/km, which is standing about rather than a pace (and would stretch the axis).
    func paceSeconds(_ metresPerSecond: Double) -> Double? {
        guard metresPerSecond.isFinite, metresPerSecond >= 0.8 else { return nil }
        return (imperial ? Self.metresPerMile : 1000) / metresPerSecond
    }

    func elevation(_ metres: Double?) -> String {
        guard let metres else { return "–" }
        guard let whole = Int(exactly: (imperial ? metres * 3.28084 : metres).rounded()) else { return "–" }
        return imperial ? "\(whole) ft" : "\(whole) m"
    }

    /// "2026-11-21T09:30:00Z": an instant for machines (a `<time datetime>`), in UTC.
    static func machine(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone.utc))
    }

    /// "21 Nov 2026": a calendar day, such as the last day of an offer.
    static func day(_ date: CalendarDate) -> String { "\(dayAndMonth(day: date.day, month: date.month)) \(date.year)" }

    /// "21 Nov 2026": the day of an instant in the person's zone, when its time does not matter.
    func date(_ date: Date) -> String {
        let clock = WallClock(date, zone: zone)
        return "\(Self.dayAndMonth(day: clock.day, month: clock.month)) \(clock.year)"
    }

    /// "Nov" ("nov" in Portuguese): a month's short name, from 1 = January.
    static func shortMonth(_ month: Int) -> String { WallClock.shortMonths[min(max(month, 1), 12) - 1] }

    /// "November" ("novembro"): a month's whole name, from 1 = January.
    static func monthName(_ month: Int) -> String { WallClock.months[min(max(month, 1), 12) - 1] }

    /// "November 2026" ("novembro de 2026"): a month of a year in words, such as when someone joined.
    static func monthAndYear(month: Int, year: Int) -> String { t("{month} {year}", monthName(month), year) }

    /// "Nov 2026" ("nov 2026"): a month of a year, as a list grouped by month heads each month.
    static func shortMonthAndYear(month: Int, year: Int) -> String { "\(shortMonth(month)) \(year)" }

    /// "Nov", or "Jan 27" for a January: a month under a chart's column, the year told where it turns.
    static func monthOnAxis(_ date: CalendarDate) -> String {
        date.month == 1 ? "\(shortMonth(date.month)) \(date.year % 100)" : shortMonth(date.month)
    }

    /// "Sunday" ("Domingo"): a weekday's name on its own, as a label or a list begins with it
    /// (capitalised in Portuguese too), from 0 = Sunday.
    static func weekdayName(_ weekday: Int) -> String { capitalised(WallClock.weekdays[min(max(weekday, 0), 6)]) }

    /// "Sun" ("Dom"): a weekday's short name on its own, as `weekdayName` writes it.
    static func shortWeekdayName(_ weekday: Int) -> String { capitalised(WallClock.shortWeekdays[min(max(weekday, 0), 6)]) }

    private static func capitalised(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

    /// "Every Tuesday until 23 Dec" ("Todas as terças-feiras até 23 dez"): a weekly repetition, from
    /// 0 = Sunday. One whole sentence per weekday, since Portuguese agrees "todos"/"todas" with the day.
    static func everyWeekdayUntil(_ weekday: Int, until: CalendarDate) -> String {
        let day = dayAndMonth(until)
        switch weekday {
        case 0: return t("Every Sunday until {day}", day)
        case 1: return t("Every Monday until {day}", day)
        case 2: return t("Every Tuesday until {day}", day)
        case 3: return t("Every Wednesday until {day}", day)
        case 4: return t("Every Thursday until {day}", day)
        case 5: return t("Every Friday until {day}", day)
        default: return t("Every Saturday until {day}", day)
        }
    }

    /// "Thursday, 26 November 2026" ("quinta-feira, 26 de novembro de 2026"): a day in full in
    /// `zone`, as the page of a game or a plan heads it.
    static func longDay(_ date: Date, zone: TimeZone) -> String {
        let clock = WallClock(date, zone: zone)
        return t("{weekday}, {day} {month} {year}", WallClock.weekdays[clock.weekday], clock.day, monthName(clock.month), clock.year)
    }

    /// "21 Nov": a day within the year, on a chart's axis or in a week's name.
    static func dayAndMonth(day: Int, month: Int) -> String { "\(day) \(shortMonth(month))" }

    static func dayAndMonth(_ date: CalendarDate) -> String { dayAndMonth(day: date.day, month: date.month) }

    /// "Fri 27 Nov" ("sex 27 nov"): a day with its weekday. Pages, notifications and e-mails all
    /// write a day through here, so each language writes it one way (Portuguese in lower case).
    static func weekdayAndDay(_ date: CalendarDate) -> String { weekdayAndDay(weekday: date.weekday, day: date.day, month: date.month) }

    static func weekdayAndDay(_ clock: WallClock) -> String { weekdayAndDay(weekday: clock.weekday, day: clock.day, month: clock.month) }

    /// "Fri 27" ("sex 27"): a day in the columns of a week whose heading names the month.
    static func weekdayAndDayOfMonth(_ date: CalendarDate) -> String { "\(WallClock.shortWeekdays[date.weekday]) \(date.day)" }

    /// "Fri 27 Nov 2026": a day with its weekday and year.
    static func weekdayDayAndYear(_ clock: WallClock) -> String { "\(weekdayAndDay(clock)) \(clock.year)" }

    private static func weekdayAndDay(weekday: Int, day: Int, month: Int) -> String {
        "\(WallClock.shortWeekdays[weekday]) \(dayAndMonth(day: day, month: month))"
    }

    /// "Sat 21 Nov 2026, 07:30" (or "7:30 am") in the person's zone and clock.
    func when(_ milliseconds: Int64) -> String {
        when(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    func when(_ date: Date) -> String {
        let clock = WallClock(date, zone: zone)
        return "\(Self.weekdayDayAndYear(clock)), \(clock.clock)"
    }

    /// "Sat 21 Nov, 18:00" in the person's zone: for what happened or falls due within the year.
    func shortWhen(_ date: Date) -> String {
        let clock = WallClock(date, zone: zone)
        return "\(Self.weekdayAndDay(clock)), \(clock.clock)"
    }

    /// "2.4 MB", "830 KB": a file's size as people read it (decimal units, as file managers show).
    static func fileSize(_ bytes: Int) -> String {
        if bytes >= 1_000_000, let tenths = Int(exactly: (Double(bytes) / 100_000).rounded()) {
            return localised("\(tenths / 10).\(tenths % 10) MB")
        }
        return "\(max(1, (bytes + 999) / 1000)) KB"
    }

    /// Why a typed distance and time cannot both be right ("85.00 km in 50:00 is 102.0 km/h, faster
    /// than anyone goes running for a whole session"), or nil when they can.
    static func implausibleSpeed(metres: Double, seconds: Double, sport: WorkoutSport, format: Format) -> String? {
        guard seconds > 0, metres > 0, metres / seconds > Plausible.topAverageSpeed(sport) else { return nil }
        return t(
            "{distance} in {time} is {speed}, faster than a whole {sport} session can be: check the distance and the time",
            format.distance(metres), duration(seconds), format.speed(metres / seconds), sport.label.lowercased())
    }

    var splitLength: Double { imperial ? Self.metresPerMile : 1000 }
    var splitUnit: String { imperial ? "mi" : "km" }

    // For machines and for coordinates: the same in every language. `make lint` refuses
    // `String(format:)` outside this file, so a number meant for a reader cannot miss the language.

    /// "12.34567": a number for a form field, a URL, a file, SQL or a log line, always with a
    /// decimal point and never grouped, whatever the reader's language.
    static func machineNumber(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(min(max(decimals, 0), 9))f", value)
    }

    /// "55.6761": one coordinate, with a decimal point in every language: a decimal comma would be
    /// read as the comma between latitude and longitude, and maps and forms expect the point.
    static func coordinate(_ degrees: Double, decimals: Int) -> String { machineNumber(degrees, decimals: decimals) }

    /// "55.6761, 12.5683": a position as people copy it into a map.
    static func coordinates(latitude: Double, longitude: Double, decimals: Int = 4) -> String {
        coordinate(latitude, decimals: decimals) + ", " + coordinate(longitude, decimals: decimals)
    }

    /// "2026-11-21": a day as it is stored and compared in SQL. Not checked: a birthday moved back
    /// some years ("2008-02-29") is still the right bound for a comparison.
    static func isoDay(year: Int, month: Int, day: Int) -> String { CalendarDate.iso(year: year, month: month, day: day) }

    /// "2026-11-21": the day of a wall clock, as `isoDay` writes it.
    static func isoDay(_ clock: WallClock) -> String { CalendarDate.iso(year: clock.year, month: clock.month, day: clock.day) }

    /// "Mon, 23 Nov 2026 18:00:00 +0000": an e-mail's `Date` header (RFC 5322), in UTC and English
    /// whatever the reader's language.
    static func rfc5322(_ date: Date) -> String {
        let utc = WallClock(date, secondsFromGMT: 0)
        return "\(rfcWeekdays[utc.weekday]), \(WallClock.pad(utc.day, 2)) \(rfcMonths[utc.month - 1]) \(utc.year) "
            + "\(WallClock.pad(utc.hour, 2)):\(WallClock.pad(utc.minute, 2)):\(WallClock.pad(utc.second, 2)) +0000"
    }

    private static let rfcWeekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let rfcMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Bytes in lower-case hexadecimal ("0a1bff"), for digests, tokens and file versions.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
