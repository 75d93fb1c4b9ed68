import FieldhouseKit
import Foundation
import Testing

@Suite struct ICalendarTests {
    @Test func escapesCommaSemicolonBackslashAndNewlines() {
        #expect(ICalendar.escape(#"Hall 2, court A; bring \ shoes"#) == #"Hall 2\, court A\; bring \\ shoes"#)
        #expect(ICalendar.escape("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
        #expect(ICalendar.escape("bell\u{07}less") == "bellless")
    }

    @Test func foldsLongLinesAt75OctetsWithoutSplittingCharacters() {
        #expect(ICalendar.fold(String(repeating: "a", count: 75)) == String(repeating: "a", count: 75))
        let folded = ICalendar.fold("SUMMARY:" + String(repeating: "x", count: 200))
        let lines = folded.components(separatedBy: "\r\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines[0].utf8.count == 75)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(lines[0] + lines.dropFirst().map { String($0.dropFirst()) }.joined() == "SUMMARY:" + String(repeating: "x", count: 200))

        // Two-byte and four-byte characters straddling the boundary stay whole.
        for filler in ["é", "⚽", "🏐"] {
            let text = "DESCRIPTION:" + String(repeating: filler, count: 60)
            let parts = ICalendar.fold(text).components(separatedBy: "\r\n")
            #expect(parts.allSatisfy { $0.utf8.count <= 75 })
            #expect(parts[0] + parts.dropFirst().map { String($0.dropFirst()) }.joined() == text)
            #expect(!ICalendar.fold(text).contains("\u{FFFD}"))
        }
    }

    @Test func writesEventsInUTCWithDurationSequenceAndStatus() {
        let start = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18 11:06:40 UTC
        let calendar = ICalendar(
            name: "Maya's games",
            events: [
                ICalendar.Event(
                    uid: "game-1@fieldhouse", start: start, durationMinutes: 90, summary: "Futsal, vs. Old Town",
                    location: "Hall 2; court A", latitude: 55.68, longitude: 12.57, url: "https://x.test/games/1", sequence: 3),
                ICalendar.Event(uid: "game-2@fieldhouse", start: start, durationMinutes: 45, summary: "Cancelled one", cancelled: true),
            ], stamp: start)
        let text = calendar.render()
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(text.contains("DTSTART:20261118T110640Z\r\n"))
        #expect(text.contains("DTSTAMP:20261118T110640Z\r\n"))
        #expect(text.contains("DURATION:PT1H30M\r\n"))
        #expect(text.contains("DURATION:PT45M\r\n"))
        #expect(text.contains("SUMMARY:Futsal\\, vs. Old Town\r\n"))
        #expect(text.contains("LOCATION:Hall 2\\; court A\r\n"))
        #expect(text.contains("GEO:55.680000;12.570000\r\n"))
        #expect(text.contains("SEQUENCE:3\r\n"))
        #expect(text.contains("STATUS:CANCELLED\r\n"))
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 3)
    }

    @Test func writesUTCTimesForAnyDate() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        for seconds in [0, 951_782_400, 951_868_799, 1_709_164_800, 4_102_444_799, -86_401, 1_795_000_000.5] as [Double] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = ICalendar(name: "x", events: [ICalendar.Event(uid: "u", start: date, durationMinutes: 5, summary: "s")], stamp: date).render()
            #expect(text.contains("DTSTART:\(formatter.string(from: date))\r\n"), "\(seconds)")
        }
    }

    @Test func localTimesUseTheVenueZone() throws {
        let copenhagen = try #require(LocalTime.instant(day: "2026-11-26", time: "19:30", zone: "Europe/Copenhagen"))
        #expect(copenhagen == Date(timeIntervalSince1970: 1_795_717_800)) // 18:30 UTC in winter
        #expect(LocalTime.parts(of: copenhagen, zone: "Europe/Copenhagen") == ("2026-11-26", "19:30"))
        #expect(LocalTime.parts(of: copenhagen, zone: "America/New_York") == ("2026-11-26", "13:30"))
        for (day, time, zone) in [
            ("2026-02-30", "10:00", "UTC"), ("2026-11-26", "24:00", "UTC"), ("2026-11-26", "7:5", "UTC"),
            ("2026-11-26", "+1:00", "UTC"), ("2026-11-26", "10:00", "Mars/Olympus"),
        ] {
            #expect(LocalTime.instant(day: day, time: time, zone: zone) == nil, "accepted \(day) \(time) \(zone)")
        }
    }
}

@Suite struct ICalendarRecurrenceTests {
    @Test func weeklyFloatingEventsWithAnAlarm() {
        var event = ICalendar.Event(uid: "reminder-1@fieldhouse", start: Date(timeIntervalSince1970: 0), durationMinutes: 30, summary: "Stretch")
        event.floatingStart = "20261123T070000"
        event.weekdays = [3, 1, 5]
        event.alarmMinutesBefore = 10
        let text = ICalendar(name: "Me", events: [event]).render()
        #expect(text.contains("DTSTART:20261123T070000\r\n"))
        #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\r\n"))
        #expect(text.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Stretch\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT"))
    }
}
