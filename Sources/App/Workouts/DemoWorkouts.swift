import FieldhouseKit
import Fluent
import Vapor

/// Maya's demo training: three real recordings from `Resources/Demo/workouts` (a FIT run, a GPX
/// walk round a lake, a TCX run) moved to the last few days, two workouts typed in by hand, and
/// two goals, so a newcomer finds charts, maps, statistics and progress bars to click through.
enum DemoWorkouts {
    /// Returns how many workouts were added; does nothing once Maya has any.
    static func seed(app: Application) async throws -> Int {
        guard let maya = try await User.query(on: app.db).filter(\.$username == "maya").first(),
              try await Workout.query(on: app.db).filter(\.$user.$id == maya.requireID()).first() == nil else { return 0 }
        let folder = app.directory.workingDirectory + "Resources/Demo/workouts/"
        let zone = TimeZone(identifier: maya.timeZone) ?? TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        /// `days` ago at `hour` o'clock in Maya's zone, in epoch milliseconds.
        func at(daysAgo days: Int, hour: Int) -> Int64 {
            let day = calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: Date()))!
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
            guard case .activity(var recording) = try ActivityFile.read(bytes), let first = recording.start else { continue }
            let shift = item.startsAt - first
            for index in recording.points.indices { recording.points[index].time += shift }
            let options = WorkoutImporter.Options(name: item.name, sport: item.sport, externalID: "demo-\(item.file)", filename: item.file)
            let moved = recording
            _ = try await app.db.transaction { db in
                try await WorkoutImporter.save(moved, start: moved.start!, end: moved.end!, hash: "demo-\(item.file)",
                                               options: options, user: maya, on: db)
            }
            added += 1
        }
        let typed: [(WorkoutSport, String, Int64, Double, Double?, Int?)] = [
            (.soccer, "Futsal training", at(daysAgo: 2, hour: 18), 75, nil, 152),
            // Today, but never in the future whenever the demo is loaded.
            (.cycling, "Ride to the park and back", min(at(daysAgo: 0, hour: 7), Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000), 35, 11_000, nil),
        ]
        for (sport, name, start, minutes, distance, heartRate) in typed {
            let workout = Workout(user: try maya.requireID(), sport: sport, name: name, start: start, end: start + Int64(minutes * 60_000),
                                  source: "manual", visibility: Workout.defaultVisibility(for: maya))
            workout.deviceDistance = distance
            workout.summariseTyped(for: maya, averageHeartRate: heartRate, steps: nil)
            try await workout.create(on: app.db)
            added += 1
        }
        if try await Goal.query(on: app.db).filter(\.$user.$id == maya.requireID()).first() == nil {
            try await Goal(user: maya.requireID(), period: .week, metric: .duration, target: 300 * 60).create(on: app.db)
            try await Goal(user: maya.requireID(), period: .day, metric: .duration, target: 60 * 60).create(on: app.db)
        }
        return added
    }
}
