import FieldhouseKit
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
