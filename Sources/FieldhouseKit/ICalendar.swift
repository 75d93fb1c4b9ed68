import Foundation

/// An iCalendar (RFC 5545) feed of events. Times are written in UTC, which every calendar program
/// shows in its own zone, so no VTIMEZONE has to be kept in step with the zone database.
public struct ICalendar: Sendable {
    public struct Event: Sendable {
        /// Stable across changes, so a calendar updates the event instead of adding a second one.
        public var uid: String
        public var start: Date
        public var durationMinutes: Int
        public var summary: String
        public var description: String?
        public var location: String?
        public var latitude: Double?
        public var longitude: Double?
        public var url: String?
        /// Bumped on every change a calendar should pick up.
        public var sequence: Int
        public var cancelled: Bool
        public var lastModified: Date?
        /// A wall-clock start without a zone ("20261123T070000"): RFC 5545 "floating" time, kept
        /// at that hour in whatever zone the calendar is in. Used instead of `start` when set.
        public var floatingStart: String?
        /// Repeats every week on these days (0 = Sunday … 6 = Saturday).
        public var weekdays: [Int] = []
        /// A display alarm this many minutes before the start.
        public var alarmMinutesBefore: Int?
        /// A whole day ("20261123") with no time: written as DTSTART;VALUE=DATE lasting one day.
        public var allDay: String?

        public init(
            uid: String, start: Date, durationMinutes: Int, summary: String, description: String? = nil,
            location: String? = nil, latitude: Double? = nil, longitude: Double? = nil, url: String? = nil,
            sequence: Int = 0, cancelled: Bool = false, lastModified: Date? = nil
        ) {
            self.uid = uid
            self.start = start
            self.durationMinutes = durationMinutes
            self.summary = summary
            self.description = description
            self.location = location
            self.latitude = latitude
            self.longitude = longitude
            self.url = url
            self.sequence = sequence
            self.cancelled = cancelled
            self.lastModified = lastModified
        }
    }

    public var name: String
    public var events: [Event]
    /// When the feed was produced: every event's DTSTAMP.
    public var stamp: Date

    public init(name: String, events: [Event], stamp: Date = Date()) {
        self.name = name
        self.events = events
        self.stamp = stamp
    }

    /// The whole calendar, CRLF line ends, every line folded to 75 octets.
    public func render() -> String {
        var out = ""
        out.reserveCapacity(200 + events.count * 400)
        func line(_ text: String) {
            out += Self.fold(text)
            out += "\r\n"
        }
        let stampText = Self.utc(stamp)
        line("BEGIN:VCALENDAR")
        line("VERSION:2.0")
        line("PRODID:-//Fieldhouse//Games//EN")
        line("CALSCALE:GREGORIAN")
        line("METHOD:PUBLISH")
        line("X-WR-CALNAME:" + Self.escape(name))
        for event in events {
            line("BEGIN:VEVENT")
            line("UID:" + Self.escape(event.uid))
            line("DTSTAMP:" + stampText)
            if let day = event.allDay {
                line("DTSTART;VALUE=DATE:" + day)
            } else {
                line("DTSTART:" + (event.floatingStart ?? Self.utc(event.start)))
            }
            if !event.weekdays.isEmpty {
                let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
                line("RRULE:FREQ=WEEKLY;BYDAY=" + event.weekdays.sorted().compactMap { days.indices.contains($0) ? days[$0] : nil }.joined(separator: ","))
            }
            line("DURATION:" + (event.allDay != nil ? "P1D" : Self.duration(minutes: event.durationMinutes)))
            line("SUMMARY:" + Self.escape(event.summary))
            if let description = event.description, !description.isEmpty { line("DESCRIPTION:" + Self.escape(description)) }
            if let location = event.location, !location.isEmpty { line("LOCATION:" + Self.escape(location)) }
            if let lat = event.latitude, let lon = event.longitude {
                line(String(format: "GEO:%.6f;%.6f", lat, lon))
            }
            if let url = event.url { line("URL:" + url) }
            line("SEQUENCE:\(event.sequence)")
            line("STATUS:" + (event.cancelled ? "CANCELLED" : "CONFIRMED"))
            if let modified = event.lastModified { line("LAST-MODIFIED:" + Self.utc(modified)) }
            if let minutes = event.alarmMinutesBefore {
                line("BEGIN:VALARM")
                line("ACTION:DISPLAY")
                line("DESCRIPTION:" + Self.escape(event.summary))
                line("TRIGGER:-" + Self.duration(minutes: minutes))
                line("END:VALARM")
            }
            line("END:VEVENT")
        }
        line("END:VCALENDAR")
        return out
    }

    /// TEXT values: backslash, semicolon and comma are escaped; any line break becomes `\n`.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousWasCR { out += "\\n" }
            default:
                // Other control characters are not allowed in TEXT; drop them.
                if scalar.value < 0x20 && scalar != "\t" { break }
                out.unicodeScalars.append(scalar)
            }
            previousWasCR = scalar == "\r"
        }
        return out
    }

    /// Splits a content line so no physical line is longer than 75 octets, never inside a UTF-8
    /// sequence; continuation lines start with one space (which counts towards their 75).
    public static func fold(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > 75 else { return line }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 37)
        var start = 0
        var limit = 75
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            // Back off to the start of a character: continuation bytes look like 10xxxxxx.
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if start > 0 { out += [0x0D, 0x0A, 0x20] }
            out += bytes[start..<end]
            start = end
            limit = 74
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// "20261118T110640Z", by `WallClock` arithmetic: a feed of 300 games formats 900 times, and
    /// Calendar did that ten times slower.
    static func utc(_ date: Date) -> String {
        let t = WallClock(date, secondsFromGMT: 0)
        return WallClock.pad(t.year, 4) + WallClock.pad(t.month, 2) + WallClock.pad(t.day, 2) + "T" + WallClock.pad(t.hour, 2)
            + WallClock.pad(t.minute, 2) + WallClock.pad(t.second, 2) + "Z"
    }

    static func duration(minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        if hours == 0 { return "PT\(rest)M" }
        return rest == 0 ? "PT\(hours)H" : "PT\(hours)H\(rest)M"
    }
}
