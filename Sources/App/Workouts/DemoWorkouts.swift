import FieldhouseKit
import Fluent
import Vapor

/// Maya's demo training: three real recordings from `Resources/Demo/workouts` (a FIT run, a GPX
/// walk round a lake, a TCX run) moved to the last few days, two workouts typed in by hand, a year
/// of generated history before that (`DemoTraining`), a week of all-day heart rate, two goals, two
/// reminders and a privacy zone round her home, so a newcomer finds charts, maps, statistics,
/// trends and progress bars to click through.
enum DemoWorkouts {
    /// Maya's home, where her generated tracks begin (as in `Resources/Demo/people.json`).
    static let home = Coordinate(latitude: 55.68, longitude: 12.57)

    /// Returns how many workouts were added; does nothing once Maya has any. `weeks` is how far
    /// back the generated history reaches.
    static func seed(app: Application, weeks: Int = 52) async throws -> Int {
        guard let maya = try await User.query(on: app.db).filter(\.$username == "maya").first(),
            try await Workout.query(on: app.db).filter(\.$user.$id == maya.requireID()).first() == nil
        else { return 0 }
        let folder = app.directory.workingDirectory + "Resources/Demo/workouts/"
        let zone = TimeZone.named(maya.timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        /// `days` ago at `hour` o'clock in Maya's zone, in epoch milliseconds.
        func at(daysAgo days: Int, hour: Int) -> Int64 {
            let day = calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: app.clock.now))!
            return Int64(calendar.date(bySettingHour: hour, minute: 5, second: 0, of: day)!.timeIntervalSince1970 * 1000)
        }
        let recordings: [(file: String, name: String, sport: WorkoutSport, startsAt: Int64)] = [
            ("activity-small-fenix2-run.fit", "Harbour loop", .running, at(daysAgo: 1, hour: 17)),
            ("cerknicko-jezero.gpx", "Round the lake", .walking, at(daysAgo: 3, hour: 10)),
            ("test.tcx", "Tempo run", .running, at(daysAgo: 6, hour: 7)),
        ]
        var added = 0
        for item in recordings {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: folder + item.file)))
            guard case .activity(var recording) = try ActivityFile.read(bytes, now: app.clock.now), let first = recording.start else { continue }
            let shift = item.startsAt - first
            for index in recording.points.indices { recording.points[index].time += shift }
            let options = WorkoutImporter.Options(name: item.name, sport: item.sport, externalID: "demo-\(item.file)", filename: item.file)
            let moved = recording
            _ = try await app.db.inTransaction { db in
                try await WorkoutImporter.save(
                    moved, start: moved.start!, end: moved.end!, hash: "demo-\(item.file)",
                    options: options, user: maya, today: app.clock.today, on: db)
            }
            added += 1
        }
        let typed: [(WorkoutSport, String, Int64, Double, Double?, Int?)] = [
            (.soccer, "Futsal training", at(daysAgo: 2, hour: 18), 75, nil, 152),
            // Today, but never in the future whenever the demo is loaded.
            (.cycling, "Ride to the park and back", min(at(daysAgo: 0, hour: 7), app.clock.milliseconds - 3_600_000), 35, 11_000, nil),
        ]
        for (sport, name, start, minutes, distance, heartRate) in typed {
            let workout = Workout(
                user: try maya.requireID(), sport: sport, name: name, start: start, end: start + Int64(minutes * 60_000),
                source: "manual", visibility: Workout.defaultVisibility(for: maya, today: app.clock.today))
            workout.deviceDistance = distance
            workout.summariseTyped(for: maya, averageHeartRate: heartRate, steps: nil)
            try await workout.create(on: app.db)
            added += 1
        }
        let training = DemoTraining(shapes: try .load(from: folder, now: app.clock.now), habit: DemoTraining.maya, home: home)
        added += try await training.seed(for: maya, fromDaysAgo: 8, toDaysAgo: weeks * 7, seed: 2026, now: app.clock.now, on: app.db)
        try await seedAllDayHeartRate(for: maya, days: 7, now: app.clock.milliseconds, on: app.db)

        // After a reset Maya has none of these but may still have her privacy zone.
        let mayaID = try maya.requireID()
        try await Goal(user: mayaID, period: .week, metric: .duration, target: 300 * 60).create(on: app.db)
        try await Goal(user: mayaID, period: .day, metric: .duration, target: 60 * 60).create(on: app.db)
        for (title, time, days, alert) in [("Futsal: pack the bag", "16:30", "4", 30), ("Stretch", "21:00", "0,1,3,5", 0)] {
            let reminder = Reminder()
            reminder.$user.id = mayaID
            reminder.title = title
            reminder.time = time
            reminder.weekdays = days
            reminder.alertMinutes = alert
            reminder.enabled = true
            try await reminder.create(on: app.db)
        }
        if try await SavedPrivacyZone.query(on: app.db).filter(\.$user.$id == mayaID).first() == nil {
            try await SavedPrivacyZone(user: mayaID, name: "Home", centre: home, radius: 300).create(on: app.db)
        }
        maya.continuousHeartRate = true
        try await maya.save(on: app.db)
        return added
    }

    /// An all-day strap's readings every 5 seconds: low and steady at night, higher and restless
    /// by day, never inside a workout (the workout's own samples are there).
    private static func seedAllDayHeartRate(for user: User, days: Int, now: Int64, on db: any Database) async throws {
        let userID = try user.requireID()
        let from = now - Int64(days) * 86_400_000
        let windows = try await Workout.query(on: db).filter(\.$user.$id == userID).filter(\.$startMS >= from - 86_400_000).all()
            .map { $0.startMS...($0.endMS ?? now) }
        let offset = Int64((TimeZone.named(user.timeZone)).secondsFromGMT()) * 1000
        var random = SeededGenerator(seed: 7)
        var batch = SampleBatch()
        var level = 60.0
        for t in stride(from: from, to: now, by: 5000) where !windows.contains(where: { $0.contains(t) }) {
            let hour = Double((t + offset) % 86_400_000) / 3_600_000
            let asleep = hour < 6.5 || hour >= 23
            let target = asleep ? 52 + 3 * sin(hour) : 72 + 8 * sin(hour / 3) + (hour > 12 && hour < 13 ? 20 : 0)
            // Drift towards the time of day's level, with a little noise from second to second.
            level += (target - level) * 0.02 + Double.random(in: -1.5...1.5, using: &random)
            batch.heartRate.append((t, Int(level.rounded())))
        }
        _ = try await SampleStore.store(batch, for: userID, on: db)
    }
}
