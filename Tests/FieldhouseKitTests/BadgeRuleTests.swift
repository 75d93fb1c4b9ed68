import FieldhouseKit
import Testing

@Suite("Badge rules")
struct BadgeRuleTests {
    @Test func streaksCountDaysInARowWithAnHourEach() {
        let days: [String: Double] = [
            "2026-02-27": 60, "2026-02-28": 75, "2026-03-01": 61, // across a month end
            "2026-03-02": 59, // one minute short breaks it
            "2026-03-03": 90, "2026-03-04": 90, "not a day": 500,
        ]
        #expect(BadgeRules.longestStreak(days, minimum: 60) == 3)
        #expect(BadgeRules.longestStreak([:], minimum: 60) == 0)
        var month: [String: Double] = [:]
        var day = CalendarDate(iso: "2026-01-01")!
        for _ in 0..<30 {
            month[day.description] = 60
            day = day.adding(days: 1)
        }
        #expect(BadgeRules.longestStreak(month, minimum: 60) == 30)
    }

    @Test func factsAddUpToTheirBadges() {
        var facts = ActivityFacts()
        #expect(BadgeRules.earned(facts).isEmpty)
        facts.addWorkout(day: "2026-11-02", seconds: 40 * 60, metres: 60_000)
        facts.addWorkout(day: "2026-11-02", seconds: 20 * 60, metres: 40_000)
        facts.addWorkout(day: "2026-12-01", seconds: .nan, metres: .infinity)
        #expect(BadgeRules.earned(facts) == [.firstWorkout, .activeHour, .hundredKilometres])
        facts.challengesCompleted = 10
        facts.gamesPlayed = 9
        facts.coachSessionsDone = 1
        #expect(BadgeRules.earned(facts) == [.firstWorkout, .activeHour, .hundredKilometres, .firstChallenge, .tenChallenges, .firstCoachPlan])
    }
}

@Suite("Nearby cells")
struct NearbyCellTests {
    @Test func pointsInOneCellShareItsCentreAndCellsAreAboutAKilometre() {
        let a = NearbyCell.snap(Coordinate(latitude: 55.68001, longitude: 12.57001))
        let b = NearbyCell.snap(Coordinate(latitude: 55.68050, longitude: 12.57050))
        #expect(a == b)
        #expect(Geo.distance(a, Coordinate(latitude: 55.68001, longitude: 12.57001)) < 1_000)
        let north = NearbyCell.snap(Coordinate(latitude: 55.68001 + NearbyCell.step, longitude: 12.57001))
        #expect((900...1_100).contains(Geo.distance(a, north)))
        for hostile in [Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180), Coordinate(latitude: 0, longitude: 0)] {
            let cell = NearbyCell.snap(hostile)
            #expect(cell.latitude.isFinite && cell.longitude.isFinite && abs(cell.latitude) <= 90)
        }
        #expect(NearbyCell.roundedKilometres(1_240) == 1)
        #expect(NearbyCell.roundedKilometres(1_260) == 1.5)
        #expect(NearbyCell.roundedKilometres(.nan) == 0)
    }
}
