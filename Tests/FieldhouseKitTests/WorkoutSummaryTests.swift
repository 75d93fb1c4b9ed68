import FieldhouseKit
import Foundation
import Testing

/// Each figure below was worked out by hand from the formula named in the test.
@Suite struct WorkoutSummaryTests {
    /// Along the equator, 3e-5° of longitude is 6,371,008.8 m × 3e-5 × π/180 = 3.335848 m.
    static let step = 3e-5
    static let stepMetres = 6_371_008.8 * 3e-5 * Double.pi / 180

    /// Ten minutes at one point a second, heart rate 150, climbing 1 m every 60 s.
    static func steadyRun() -> [TrackPoint] {
        (0...600).map { second in
            TrackPoint(
                time: Int64(second) * 1000, latitude: 0, longitude: Double(second) * step,
                elevation: 100 + Double(second / 60), heartRate: 150)
        }
    }

    @Test func distanceSpeedAndMovingTimeOfASteadyRun() {
        let summary = WorkoutSummary.compute(points: Self.steadyRun(), sport: .running, profile: AthleteProfile())
        #expect(abs(summary.distance! - 600 * Self.stepMetres) < 0.01) // 2001.51 m
        #expect(summary.elapsed == 600)
        #expect(summary.moving == 600)
        #expect(abs(summary.avgSpeed! - Self.stepMetres) < 1e-6)
        #expect(abs(summary.maxSpeed! - Self.stepMetres) < 1e-6)
        #expect(abs(summary.minSpeed! - Self.stepMetres) < 1e-6)
        // 1000 / 3.335848 = 299.77 s per km.
        #expect(abs(summary.pace! - 299.774) < 0.01)
        // 100 → 110 m in 1 m steps: counted at 103, 106, 109 (threshold 3 m): 9 m.
        #expect(summary.elevationGain == 9)
    }

    @Test func pausesAndInaccurateFixesAddNothing() {
        var points = Self.steadyRun()
        // A fix 1 km off with 80 m accuracy in the middle: left out of the distance.
        points[300].latitude = 0.009
        points[300].accuracy = 80
        // Two minutes standing still after the run.
        let last = points.last!
        for second in 1...120 { points.append(TrackPoint(time: last.time + Int64(second) * 1000, latitude: 0, longitude: last.longitude)) }
        let summary = WorkoutSummary.compute(points: points, sport: .running, profile: AthleteProfile())
        #expect(abs(summary.distance! - 600 * Self.stepMetres) < 0.01)
        #expect(summary.elapsed == 720)
        #expect(summary.moving == 600)
    }

    @Test func elevationGainIgnoresNoiseBelowTheThreshold() {
        // 100→104 counts 4; down to 99 resets the reference; 99→105 counts 6; 106 is 1 above: 10 m.
        #expect(WorkoutSummary.elevationGain([100, 101, 102, 104, 103, 100, 99, 105, 106]) == 10)
        #expect(WorkoutSummary.elevationGain([50, 51, 50, 52, 50, 51]) == 0)
        #expect(WorkoutSummary.elevationGain([]) == 0)
    }

    @Test func keytelEquations() {
        // Male, 150 bpm, 70 kg, 30 y: (−55.0969 + 94.635 + 13.916 + 6.051) / 4.184 = 14.2221 kcal/min.
        #expect(abs(WorkoutSummary.keytelKcalPerMinute(heartRate: 150, age: 30, sex: .male, weightKg: 70) - 14.2221) < 0.0005)
        // Female: (−20.4022 + 67.08 − 8.841 + 2.22) / 4.184 = 9.5738 kcal/min.
        #expect(abs(WorkoutSummary.keytelKcalPerMinute(heartRate: 150, age: 30, sex: .female, weightKg: 70) - 9.5738) < 0.0005)
        // Never negative at a resting heart rate.
        #expect(WorkoutSummary.keytelKcalPerMinute(heartRate: 40, age: 12, sex: .male, weightKg: 30) == 0)
    }

    @Test func heartRateZonesTRIMPAndCaloriesFromHeartRate() {
        let profile = AthleteProfile(age: 20, sex: .male, weightKg: 60)
        let summary = WorkoutSummary.compute(points: Self.steadyRun(), sport: .running, profile: profile)
        #expect(summary.minHeartRate == 150 && summary.avgHeartRate == 150 && summary.maxHeartRate == 150)
        // 208 − 0.7 × 20 = 194; zones from 50 % (97), 60 % (116), 70 % (136), 80 % (155), 90 % (175).
        #expect(summary.zoneMaximum == 194)
        #expect(summary.zoneLimits == [97, 116, 136, 155, 175])
        #expect(summary.zoneSeconds == [0, 0, 600, 0, 0])
        // Reserve (150 − 60) / (194 − 60) = 0.671642; × 0.64 × e^(1.92 × 0.671642) = 1.56090 per minute; 10 minutes.
        #expect(abs(summary.trimp! - 15.609) < 0.001)
        // (−55.0969 + 0.6309×150 + 0.1988×60 + 0.2017×20) / 4.184 = 13.26484 kcal/min × 10 min.
        #expect(summary.calorieMethod == .heartRate)
        #expect(abs(summary.calories! - 132.648) < 0.001)
        #expect(summary.notes == ["Training load (TRIMP) assumes a resting heart rate of 60 bpm."])
    }

    @Test func caloriesFallBackToMETAndSaySo() {
        var points = Self.steadyRun()
        for i in points.indices { points[i].heartRate = nil }
        // Running MET 9.8 × 55 kg × 600 s / 3600 = 89.833 kcal.
        let summary = WorkoutSummary.compute(points: points, sport: .running, profile: AthleteProfile(weightKg: 55))
        #expect(summary.calorieMethod == .met)
        #expect(abs(summary.calories! - 89.8333) < 0.001)
        #expect(summary.notes.contains { $0.contains("no heart rate") })
        #expect(summary.trimp == nil && summary.avgHeartRate == nil)

        // Heart rate but no birth date or sex: MET again, naming what is missing; zones assume 190.
        let partial = WorkoutSummary.compute(points: Self.steadyRun(), sport: .cycling, profile: AthleteProfile())
        #expect(partial.calorieMethod == .met)
        // Cycling MET 7.5 × 70 kg (assumed) × 1/6 h = 87.5 kcal.
        #expect(abs(partial.calories! - 87.5) < 0.001)
        #expect(partial.notes.contains { $0.contains("birth date, sex, weight") && $0.contains("70 kg") })
        #expect(partial.zoneMaximum == 190)
    }

    @Test func aMeasuredMaximumAndCoachZonesWin() {
        let profile = AthleteProfile(
            age: 20, sex: .female, weightKg: 60, maxHeartRate: 200, restingHeartRate: 50,
            zoneLimits: [100, 120, 140, 160, 180])
        let summary = WorkoutSummary.compute(points: Self.steadyRun(), sport: .running, profile: profile)
        #expect(summary.zoneMaximum == 200)
        #expect(summary.zoneSeconds == [0, 0, 600, 0, 0])
        // Reserve 100/150 = 0.666667; × 0.86 × e^(1.67 × 0.666667) = 0.573333 × 3.044484 = 1.745504 per minute.
        #expect(abs(summary.trimp! - 17.45504) < 0.001)
        #expect(summary.notes.isEmpty)
    }

    @Test func heartRateSamplesBetweenFixesDoNotStopTheClock() {
        // A strap's samples half a second after each GPS fix, merged into one time line.
        var points: [TrackPoint] = []
        for point in Self.steadyRun() {
            points.append(TrackPoint(time: point.time, latitude: point.latitude, longitude: point.longitude))
            points.append(TrackPoint(time: point.time + 500, heartRate: 140))
        }
        let summary = WorkoutSummary.compute(points: points, sport: .running, profile: AthleteProfile())
        #expect(summary.moving == 600)
        #expect(abs(summary.maxSpeed! - Self.stepMetres) < 1e-6)
        #expect(summary.avgHeartRate == 140)
    }

    @Test func heartRateWithoutPositionsStillHasMovingTime() {
        let points = (0...300).map { TrackPoint(time: Int64($0) * 1000, heartRate: 120) }
        let summary = WorkoutSummary.compute(points: points, sport: .strength, profile: AthleteProfile())
        #expect(summary.distance == nil && summary.avgSpeed == nil)
        #expect(summary.moving == 300)
        #expect(summary.avgHeartRate == 120)
    }

    @Test func aDeviceOdometerIsPreferredToGPS() {
        let summary = WorkoutSummary.compute(
            points: Self.steadyRun(), sport: .cycling, profile: AthleteProfile(),
            device: DeviceTotals(distance: 2100, calories: 120))
        #expect(summary.distance == 2100)
        #expect(summary.avgSpeed == 3.5)
        #expect(summary.calorieMethod == .device && summary.calories == 120)
    }

    @Test func lttbKeepsEndsAndPeaks() {
        let x = (0..<1000).map(Double.init)
        var y = x.map { sin($0 / 50) }
        y[537] = 25 // a spike averaging would hide
        let kept = LTTB.indexes(x: x, y: y, threshold: 100)
        #expect(kept.count == 100)
        #expect(kept.first == 0 && kept.last == 999)
        #expect(kept.contains(537))
        #expect(kept == kept.sorted() && Set(kept).count == kept.count)
        #expect(LTTB.indexes(x: [0, 1, 2], y: [1, 2, 3], threshold: 100) == [0, 1, 2])
    }
}

@Suite struct SampleTimeWriterTests {
    @Test func writesWhatItReads() {
        #expect(SampleTime.rfc3339(milliseconds: 0) == "1970-01-01T00:00:00Z")
        #expect(SampleTime.rfc3339(milliseconds: 1_763_719_200_250) == "2025-11-21T10:00:00.250Z")
        for text in ["2011-09-25T13:00:22Z", "2024-02-29T23:59:59.001Z"] {
            #expect(SampleTime.rfc3339(milliseconds: SampleTime.milliseconds(rfc3339: text)!) == text)
        }
    }
}
