import FieldhouseKit
import Foundation
import Testing

@Suite struct CalendarDateTests {
    @Test func parsesOnlyRealISODates() {
        #expect(CalendarDate(iso: "2008-04-23")?.description == "2008-04-23")
        #expect(CalendarDate(iso: "2024-02-29") != nil)
        #expect(CalendarDate(iso: "2023-02-29") == nil)
        #expect(CalendarDate(iso: "1900-02-29") == nil)
        #expect(CalendarDate(iso: "2000-02-29") != nil)
        for bad in ["", "2008-4-23", "23/04/2008", "2008-13-01", "2008-00-10", "２００８-04-23", "2008-04-23T00:00"] {
            #expect(CalendarDate(iso: bad) == nil, "accepted \(bad)")
        }
    }

    @Test func ageCountsWholeYears() throws {
        let birth = try #require(CalendarDate(iso: "2010-06-15"))
        #expect(birth.age(on: try #require(CalendarDate(iso: "2026-06-14"))) == 15)
        #expect(birth.age(on: try #require(CalendarDate(iso: "2026-06-15"))) == 16)
        let leap = try #require(CalendarDate(iso: "2008-02-29"))
        #expect(leap.age(on: try #require(CalendarDate(iso: "2026-02-28"))) == 17)
        #expect(leap.age(on: try #require(CalendarDate(iso: "2026-03-01"))) == 18)
    }

    @Test func ageGroups() {
        #expect(AgeGroup.of(age: 11) == .under12)
        #expect(AgeGroup.of(age: 12) == .from12to14)
        #expect(AgeGroup.of(age: 17) == .from15to17)
        #expect(AgeGroup.of(age: 18) == .adult)
        #expect(AgeGroup.of(age: 40) == .veteran)
        #expect(AgeGroup.adult.admits(age: 40))
        #expect(!AgeGroup.veteran.admits(age: 34))
        #expect(!AgeGroup.from15to17.admits(age: 14))
        #expect(AgeGroup.any.admits(age: 9))
    }
}

@Suite struct WallClockTests {
    @Test func agreesWithCalendarAcrossZonesLeapDaysAndCenturies() {
        var calendar = Calendar(identifier: .gregorian)
        for zone in ["UTC", "Europe/Copenhagen", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham"] {
            let tz = TimeZone(identifier: zone)!
            calendar.timeZone = tz
            // From 1899 to 2101 in uneven steps, so leap days, 1900 and 2100 are crossed.
            var instant = Date(timeIntervalSince1970: -2_240_524_800)
            while instant.timeIntervalSince1970 < 4_133_980_800 {
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: instant)
                let w = WallClock(instant, zone: tz)
                let mine: [Int] = [w.year, w.month, w.day, w.hour, w.minute, w.second, w.weekday + 1]
                let theirs: [Int] = [c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, c.weekday!]
                #expect(mine == theirs, "\(zone) \(instant)")
                instant += 86_400 * 37 + 3_671
            }
        }
        let thursday = WallClock(Date(timeIntervalSince1970: 1_795_725_000), secondsFromGMT: 3600)
        #expect(thursday.weekday == 4 && thursday.day == 26 && thursday.month == 11)
    }
}

@Suite struct ReportPeriodTests {
    @Test func weeksStartOnMondayAndMonthsWrapTheYear() {
        let sunday = CalendarDate(iso: "2026-11-22")!
        #expect(sunday.weekday == 0)
        #expect(ReportPeriod.week.start(containing: sunday).description == "2026-11-16")
        #expect(ReportPeriod.week.start(containing: CalendarDate(iso: "2026-11-16")!).description == "2026-11-16")
        #expect(ReportPeriod.month.last(3, endingAt: CalendarDate(iso: "2027-01-15")!).map(\.description) == ["2026-11-01", "2026-12-01", "2027-01-01"])
        #expect(ReportPeriod.day.last(2, endingAt: CalendarDate(iso: "2024-03-01")!).map(\.description) == ["2024-02-29", "2024-03-01"])
        #expect(ReportPeriod.week.next(after: CalendarDate(iso: "2026-12-28")!).description == "2027-01-04")
    }
}
