import FieldhouseKit
import Fluent
import Vapor

/// Jonas coaches a squad of twelve demo athletes with different habits: twelve weeks of generated
/// training each (the last week with samples), one who stopped a fortnight ago, one who doubled
/// her training last week, plans for last week, this week and next, and a few comments. One more
/// person has asked Jonas to coach them and waits for his answer.
enum DemoCoaching {
    static let coach = "jonas"
    static let squad = ["maya", "amara", "leo_t", "sofia", "omar", "ingrid", "kai", "priya", "tomas", "elin", "sam", "felix"]

    /// Habits by how often and what: a runner, a rider, a team-sport player, a casual walker.
    static let habits: [DemoTraining.Habit] = [
        .init(week: [1: [(.easyRun, 0.8)], 3: [(.tempoRun, 0.6)], 5: [(.easyRun, 0.5)], 0: [(.easyRun, 0.7)]], hour: 7, weeksOff: 2, fitnessGain: 0.08),
        .init(week: [2: [(.ride, 0.7)], 4: [(.ride, 0.6)], 6: [(.ride, 0.8)], 0: [(.walk, 0.4)]], hour: 18, weeksOff: 3, fitnessGain: 0.05),
        .init(week: [2: [(.futsal, 0.9)], 4: [(.futsal, 0.9)], 6: [(.strength, 0.5)]], hour: 17, weeksOff: 2, fitnessGain: 0.04),
        .init(week: [3: [(.walk, 0.5)], 6: [(.walk, 0.6), (.swim, 0.3)]], hour: 12, weeksOff: 5, fitnessGain: 0.02),
    ]

    /// Returns how many athletes were linked; does nothing once Jonas coaches anyone.
    static func seed(app: Application) async throws -> Int {
        let db = app.db
        guard let jonas = try await User.query(on: db).filter(\.$username == coach).first(),
            try await CoachGrant.query(on: db).filter(\.$coach.$id == jonas.requireID()).first() == nil
        else { return 0 }
        let coachID = try jonas.requireID()
        let shapes = try DemoTraining.Shapes.load(from: app.directory.workingDirectory + "Resources/Demo/workouts/", now: app.clock.now)
        let people = try await User.query(on: db).filter(\.$username ~~ squad).all()
        let today = app.clock.today
        let monday = ReportPeriod.week.start(containing: today)
        var linked = 0
        for (index, athlete) in people.sorted(by: { $0.username < $1.username }).enumerated() {
            let athleteID = try athlete.requireID()
            let grant = CoachGrant(coach: coachID, athlete: athleteID, requestedBy: .coach)
            grant.status = .active
            grant.acceptedAt = app.clock.now.addingTimeInterval(-90 * 86_400)
            try await grant.create(on: db)
            linked += 1
            // Maya already has a year of her own.
            if athlete.username != "maya" {
                let home = Coordinate(latitude: athlete.homeLat ?? 55.68, longitude: athlete.homeLon ?? 12.57)
                let training = DemoTraining(shapes: shapes, habit: habits[index % habits.count], home: home)
                // Omar stopped two weeks ago; Sofia trained twice as much in the last week.
                let newest = athlete.username == "omar" ? 14 : 1
                _ = try await training.seed(
                    for: athlete, fromDaysAgo: newest, toDaysAgo: 84, seed: UInt64(100 + index), samplesFor: 7, now: app.clock.now, on: db)
                if athlete.username == "sofia" {
                    let everyDay = DemoTraining.Habit(
                        week: Dictionary(uniqueKeysWithValues: (0..<7).map { ($0, [(DemoTraining.Kind.tempoRun, 1.0)]) }),
                        hour: 6, weeksOff: 0, fitnessGain: 0)
                    let extra = DemoTraining(shapes: shapes, habit: everyDay, home: home)
                    _ = try await extra.seed(for: athlete, fromDaysAgo: 1, toDaysAgo: 6, seed: 999, samplesFor: 0, now: app.clock.now, on: db)
                }
            }
            // Plans: last week and the days of this week so far follow what the athlete did, give or
            // take (so some are on plan, some partly, and one was missed); the days ahead get the
            // sessions of their habit.
            let done = try await Workout.query(on: db).filter(\.$user.$id == athleteID).filter(\.$endMS != nil)
                .filter(\.$startMS >= Int64(monday.adding(days: -8).dayNumber) * 86_400_000).sort(\.$startMS).all()
            var random = SeededGenerator(seed: UInt64(500 + index))
            let zone = TimeZone.named(athlete.timeZone)
            for workout in done.prefix(5) {
                let clock = WallClock(Date(timeIntervalSince1970: Double(workout.startMS) / 1000), zone: zone)
                let day = CalendarDate(year: clock.year, month: clock.month, day: clock.day)!
                guard day >= monday.adding(days: -7) else { continue }
                let planned = (workout.duration * Double.random(in: 0.7...1.45, using: &random) / 300).rounded() * 300
                try await PlannedWorkout(
                    coach: coachID, athlete: athleteID, day: day.description, sport: WorkoutSport(rawValue: workout.sport) ?? .other,
                    duration: planned, distance: nil, description: "As we discussed"
                ).create(on: db)
            }
            if index % 3 == 0 {
                try await PlannedWorkout(
                    coach: coachID, athlete: athleteID, day: monday.adding(days: -3).description, sport: .strength,
                    duration: 1800, distance: nil, description: "Core and hips, 3 rounds"
                ).create(on: db)
            }
            for offset in 1...7 {
                let day = today.adding(days: offset)
                guard let kind = habits[index % habits.count].week[day.weekday]?.first?.0 else { continue }
                let minutes: Double = kind == .futsal ? 75 : kind == .ride ? 90 : 45
                try await PlannedWorkout(
                    coach: coachID, athlete: athleteID, day: day.description, sport: kind.sport, duration: minutes * 60,
                    distance: nil, description: kind == .tempoRun ? "3 × 8 min at threshold, 2 min easy between" : "Easy and steady"
                ).create(on: db)
            }
        }
        // A short conversation under a few recent workouts.
        for username in ["maya", "sofia", "priya"] {
            guard let athlete = people.first(where: { $0.username == username }),
                let workout = try await Workout.query(on: db).filter(\.$user.$id == athlete.requireID()).filter(\.$endMS != nil)
                    .sort(\.$startMS, .descending).first()
            else { continue }
            try await WorkoutComment(
                workout: workout.requireID(), author: coachID,
                body: "Nice one. Keep the first half **easy** next time, then build.", at: app.clock.now
            ).create(on: db)
            try await WorkoutComment(
                workout: workout.requireID(), author: athlete.requireID(),
                body: "Thanks! Legs felt heavy after the hills; I'll take it slower.", at: app.clock.now.addingTimeInterval(60)
            ).create(on: db)
        }
        // Noor asks Jonas and waits.
        if let noor = try await User.query(on: db).filter(\.$username == "noor").first() {
            try await CoachGrant(coach: coachID, athlete: noor.requireID(), requestedBy: .athlete).create(on: db)
        }
        return linked
    }
}
