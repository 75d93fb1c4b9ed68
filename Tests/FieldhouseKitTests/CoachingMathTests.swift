import FieldhouseKit
import Testing

@Suite("Compliance, training load and zones")
struct CoachingMathTests {
    @Test func complianceFollowsTheBands() {
        // Planned 60 minutes.
        #expect(Compliance(planned: 3600, done: 3600) == .green)
        #expect(Compliance(planned: 3600, done: 2880) == .green) // 80 %
        #expect(Compliance(planned: 3600, done: 4320) == .green) // 120 %
        #expect(Compliance(planned: 3600, done: 2879) == .yellow) // just under 80 %
        #expect(Compliance(planned: 3600, done: 1800) == .yellow) // 50 %
        #expect(Compliance(planned: 3600, done: 4321) == .yellow) // just over 120 %
        #expect(Compliance(planned: 3600, done: 5400) == .yellow) // 150 %
        #expect(Compliance(planned: 3600, done: 1799) == .red) // under 50 %
        #expect(Compliance(planned: 3600, done: 5401) == .red) // over 150 %
        #expect(Compliance(planned: 3600, done: nil) == .red) // missed
        #expect(Compliance(planned: 10_000, done: 9_000) == .green) // distance works the same
    }

    @Test func loadRatioFlagsASuddenWeek() {
        // 28 days of 1,200 TRIMP is 300 a week; 460 in the last 7 days is 1.53×.
        let hard = TrainingLoad(acute: 460, chronic28: 1200)
        #expect(hard.chronicWeekly == 300)
        #expect(abs(hard.ratio! - 460.0 / 300) < 1e-9)
        #expect(hard.overreaching)
        #expect(!TrainingLoad(acute: 450, chronic28: 1200).overreaching, "exactly 1.5× is not more than 1.5×")
        #expect(TrainingLoad(acute: 100, chronic28: 0).ratio == nil)
        #expect(!TrainingLoad(acute: 100, chronic28: 0).overreaching)
    }

    @Test func zonesFromMaximumOrReserve() {
        let byMax = HeartRateZones(maximum: 200, resting: 50, basis: .maximum, percents: [50, 60, 70, 80, 90])
        #expect(byMax.limits == [100, 120, 140, 160, 180])
        // Karvonen: 50 + p × 150.
        let byReserve = HeartRateZones(maximum: 200, resting: 50, basis: .reserve, percents: [50, 60, 70, 80, 90])
        #expect(byReserve.limits == [125, 140, 155, 170, 185])
    }

    @Test func zoneFormProblemsAreNamedByField() {
        #expect(HeartRateZones.problems(maximum: 190, resting: 55, basis: .reserve, percents: [50, 60, 70, 80, 90]).isEmpty)
        let backwards = HeartRateZones.problems(maximum: 190, resting: 55, basis: .maximum, percents: [50, 70, 60, 80, 90])
        #expect(backwards == ["zone3": "Each zone must start above the one before (70 %)."])
        let restAbove = HeartRateZones.problems(maximum: 150, resting: 160, basis: .maximum, percents: [50, 60, 70, 80, 90])
        #expect(restAbove["resting_hr"] != nil)
        #expect(
            HeartRateZones.problems(maximum: nil, resting: nil, basis: .reserve, percents: [50, 60, 70, 80, nil]).keys.sorted()
                == ["max_hr", "resting_hr", "zone5"])
        #expect(
            HeartRateZones.problems(maximum: 300, resting: 20, basis: .maximum, percents: [0, 60, 70, 80, 100]).keys.sorted()
                == ["max_hr", "resting_hr", "zone1", "zone5"])
    }
}
