import FieldhouseKit
import Testing

/// The state machine alone, reading by reading, with a day that ends at a fixed instant.
@Suite("Cycling eligibility")
struct CyclingEligibilityTests {
    typealias E = CyclingEligibility
    let rules = E.Rules(readingsInARow: 3, cyclingSeconds: 600, vehicleSpeed: 60 / 3.6, vehicleCoolDown: 300, maximumGap: 180, minimumConfidence: 50)
    /// Midnight at 24 h: every test starts at 10:00.
    let midnight: Int64 = 86_400_000
    let ten: Int64 = 36_000_000

    func run(_ status: inout E.Status, _ readings: [(Int64, E.Reading)], now: Int64? = nil) -> [E.State] {
        let events = readings.map { E.Event(time: $0.0, reading: $0.1) }
        let end = midnight
        return E.advance(&status, events: events, now: now ?? (readings.last?.0 ?? ten), rules: rules, endOfDay: { _ in end }).map(\.to)
    }

    func minutes(_ from: Int64, _ count: Int, _ reading: E.Reading, every seconds: Int64 = 60) -> [(Int64, E.Reading)] {
        (0..<count).map { (from + Int64($0) * seconds * 1000, reading) }
    }

    @Test func everyTransitionAndItsCause() {
        var status = E.Status()
        #expect(run(&status, minutes(ten, 2, .cycling)) == [])
        #expect(run(&status, minutes(ten + 120_000, 1, .cycling)) == [.cyclingIneligible])
        #expect(run(&status, minutes(ten + 180_000, 7, .cycling)) == [], "nine minutes of cycling are not ten")
        var copy = status
        let made = E.advance(&copy, events: [E.Event(time: ten + 600_000, reading: .cycling)], now: ten + 600_000, rules: rules, endOfDay: { _ in midnight })
        #expect(made.map(\.to) == [.cyclingEligible])
        #expect(made.first?.cause == "cycling for 10 minutes")
        status = copy
        #expect(run(&status, minutes(ten + 660_000, 2, .other)) == [])
        #expect(run(&status, minutes(ten + 780_000, 1, .other)) == [.unknownEligible])
        #expect(run(&status, minutes(ten + 840_000, 3, .cycling)) == [.cyclingEligible], "back on the bike")
        #expect(run(&status, minutes(ten + 1_020_000, 3, .vehicle)) == [.vehicular])
        #expect(status.state.isEligible == false)
        #expect(run(&status, minutes(ten + 1_200_000, 3, .cycling)) == [.cyclingEligible], "a misread vehicle: back where it was")
        #expect(run(&status, minutes(ten + 1_400_000, 3, .vehicle)) == [.vehicular])
        // Five quiet minutes after the last sign of a vehicle: eligibility is lost.
        #expect(run(&status, [], now: ten + 1_520_000 + 299_000) == [])
        #expect(run(&status, [], now: ten + 1_520_000 + 300_000) == [.ineligible])
    }

    @Test func theDayEndsEligibility() {
        var status = E.Status()
        _ = run(&status, minutes(ten, 12, .cycling))
        _ = run(&status, minutes(ten + 720_000, 3, .other))
        #expect(status.state == .unknownEligible)
        #expect(run(&status, [], now: midnight - 1) == [])
        let made = E.advance(&status, events: [], now: midnight, rules: rules, endOfDay: { _ in midnight })
        #expect(made.map(\.to) == [.ineligible] && made.first?.cause == "the day ended" && made.first?.time == midnight)
    }

    @Test func aCarRideOverMidnightDoesNotCarryEligibilityIntoTheNextDay() {
        var status = E.Status()
        let late = midnight - 1_800_000
        _ = run(&status, minutes(late - 720_000, 12, .cycling))
        #expect(status.state == .cyclingEligible)
        _ = run(&status, minutes(late, 3, .vehicle))
        #expect(status.state == .vehicular)
        // Still in the car past midnight, then walking: the day ended in the vehicle.
        _ = run(&status, minutes(late + 180_000, 30, .vehicle))
        #expect(run(&status, minutes(midnight + 180_000, 3, .other, every: 20)) == [.ineligible])
    }

    @Test func retriesGapsAndStoppingShortChangeNothingTwice() {
        var status = E.Status()
        let ride = minutes(ten, 5, .cycling)
        #expect(run(&status, ride) == [.cyclingIneligible])
        let before = status
        #expect(run(&status, ride) == [], "a retried batch")
        #expect(status == before)
        // Half an hour of silence: the ride starts again, so ten minutes count from here.
        #expect(run(&status, minutes(ten + 2_100_000, 9, .cycling)) == [])
        #expect(run(&status, minutes(ten + 2_100_000 + 600_000, 1, .cycling)) == [.cyclingEligible])
        // Stopping before ten minutes goes back to the start.
        var short = E.Status()
        _ = run(&short, minutes(ten, 4, .cycling))
        #expect(run(&short, minutes(ten + 240_000, 3, .other)) == [.ineligible])
        // Speeds: what no bike reaches is a vehicle reading, a rider's pace a cycling one, the rest nothing.
        #expect(E.Event.speed(time: 1, metresPerSecond: 5, rules: rules)?.reading == .cycling)
        #expect(E.Event.speed(time: 1, metresPerSecond: 3, rules: rules) == nil, "a jog, or a rider at the lights")
        #expect(E.Event.speed(time: 1, metresPerSecond: 12, rules: rules) == nil)
        #expect(E.Event.speed(time: 1, metresPerSecond: 25, rules: rules)?.reading == .vehicle)
        #expect(E.Event.speed(time: 1, metresPerSecond: .infinity, rules: rules) == nil)
        #expect(E.Event.motion(time: 1, activity: "cycling", confidence: 20, rules: rules) == nil, "unsure readings are ignored")
        #expect(E.Event.motion(time: 1, activity: "unknown", confidence: 100, rules: rules) == nil)
    }
}
