import Foundation

/// Sample times as devices send them: RFC 3339 strings ("2026-11-21T10:00:00.250+01:00") or epoch
/// milliseconds. Parsed by hand, as a batch of 3,600 samples would spend most of its time in a
/// general date formatter.
public enum SampleTime {
    /// Milliseconds since 1970 for an RFC 3339 date-time, or nil when it is not one.
    public static func milliseconds(rfc3339 text: String) -> Int64? {
        var text = text
        return text.withUTF8 { milliseconds(rfc3339: $0) }
    }

    /// The same for the text's UTF-8 bytes (an activity file's, read without making a String).
    public static func milliseconds(rfc3339 utf8: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard utf8.count >= 20 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<from + count {
                let d = Int(utf8[i]) - 48
                guard d >= 0 && d <= 9 else { return nil }
                value = value * 10 + d
            }
            return value
        }
        // "T", or " " or "t" as RFC 3339 allows.
        guard utf8[4] == 0x2D, utf8[7] == 0x2D, utf8[10] == 0x54 || utf8[10] == 0x20 || utf8[10] == 0x74, utf8[13] == 0x3A, utf8[16] == 0x3A,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var millis = 0
        if utf8[index] == 0x2E {
            index += 1
            var digits = 0
            while index < utf8.count, (48...57).contains(utf8[index]) {
                if digits < 3 { millis = millis * 10 + Int(utf8[index]) - 48 }
                digits += 1
                index += 1
            }
            // Any precision is a time (Python writes microseconds, .NET ten-millionths); past the
            // milliseconds the digits are read and dropped.
            guard digits > 0 else { return nil }
            for _ in 0..<max(0, 3 - digits) { millis *= 10 }
        }
        guard index < utf8.count else { return nil }
        var offset = 0
        switch utf8[index] {
        case 0x5A, 0x7A: // Z
            guard index + 1 == utf8.count else { return nil }
        case 0x2B, 0x2D: // + or -
            guard index + 6 == utf8.count, utf8[index + 3] == 0x3A,
                let oh = number(index + 1, 2), let om = number(index + 4, 2), oh < 24, om < 60
            else { return nil }
            offset = (oh * 60 + om) * 60 * (utf8[index] == 0x2D ? -1 : 1)
        default:
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offset)
        return seconds * 1000 + Int64(millis)
    }

    /// "2026-11-21T10:00:00Z", with ".250" when the time has milliseconds.
    public static func rfc3339(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - seconds * 1000)
        let clock = WallClock(Date(timeIntervalSince1970: Double(seconds)), secondsFromGMT: 0)
        let pad = WallClock.pad
        var text = CalendarDate.iso(year: clock.year, month: clock.month, day: clock.day)
        text += "T\(pad(clock.hour, 2)):\(pad(clock.minute, 2)):\(pad(clock.second, 2))"
        if millis != 0 { text += "." + pad(millis, 3) }
        return text + "Z"
    }

    /// Days since 1970-01-01 (Howard Hinnant's days-from-civil).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
