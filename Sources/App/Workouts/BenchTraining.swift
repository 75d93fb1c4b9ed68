import FieldhouseKit
import Fluent
import Vapor

/// Load-test data for `make bench`: the person `bench_athlete` (password `bench-password`) with a
/// one-hour run at 1 Hz with heart rate and GPS, 30 days of all-day heart rate at 1 Hz, and 2,000
/// typed workouts over five and a half years. Deterministic, so runs are comparable.
enum BenchTraining {
    static let username = "bench_athlete"

    static func seed(app: Application) async throws {
        guard try await User.query(on: app.db).filter(\.$username == username).first() == nil else { return }
        let user = User(
            username: username, email: "\(username)@bench.invalid", passwordHash: try app.password.hash("bench-password"),
            displayName: "Bench Athlete", birthDate: "1995-04-01")
        user.continuousHeartRate = true
        user.weightKg = 68
        user.gender = .female
        try await user.create(on: app.db)
        let userID = try user.requireID()
        var random = SeededGenerator(seed: 11)
        let now = app.clock.milliseconds

        // The hour-long run, ending two hours ago: a 10 km loop at 2.8 m/s, rolling ground.
        let runStart = now - 3 * 3_600_000
        var points: [TrackPoint] = []
        let radius = 10_000.0 / (2 * .pi)
        for second in 0..<3600 {
            let angle = Double(second) * 2.8 / radius
            let lat = 55.68 + radius * sin(angle) / 111_320
            let lon = 12.57 + radius * (1 - cos(angle)) / (111_320 * cos(55.68 * .pi / 180))
            let effort = 135 + 30 * Double(second) / 3600 + 6 * sin(Double(second) / 90)
            points.append(
                TrackPoint(
                    time: runStart + Int64(second) * 1000, latitude: lat, longitude: lon,
                    elevation: 12 + 9 * sin(angle * 3), heartRate: Int(effort) + Int.random(in: -2...2, using: &random),
                    cadence: 170 + Int.random(in: -3...3, using: &random)))
        }
        let run = ActivityRecording(format: .gpx, sport: .running, name: "Bench hour", points: points)
        let runEnd = points[points.count - 1].time
        _ = try await app.db.inTransaction { db in
            try await WorkoutImporter.save(
                run, start: runStart, end: runEnd, hash: "bench-hour",
                options: .init(name: "Bench hour", sport: .running, externalID: "bench-hour", filename: "bench.gpx"),
                user: user, today: app.clock.today, on: db)
        }

        // 30 days of all-day heart rate at 1 Hz, a day per transaction.
        var level = 60.0
        for day in 0..<30 {
            var batch = SampleBatch()
            batch.heartRate.reserveCapacity(86_400)
            let dayStart = now - Int64(30 - day) * 86_400_000
            for second in 0..<86_400 {
                let hour = Double(second) / 3600
                let target = hour < 7 || hour > 23 ? 52.0 : 74 + 10 * sin(hour / 2)
                level += (target - level) * 0.01 + Double.random(in: -1...1, using: &random)
                batch.heartRate.append((dayStart + Int64(second) * 1000, Int(level.rounded())))
            }
            _ = try await SampleStore.store(batch, for: userID, on: app.db)
        }

        // 2,000 typed workouts, one every day or so, going back from a month ago.
        let sports: [WorkoutSport] = [.running, .cycling, .walking, .swimming, .strength, .soccer]
        var workouts: [Workout] = []
        for index in 0..<2000 {
            let sport = sports[index % sports.count]
            let start = now - 31 * 86_400_000 - Int64(index) * 86_400_000 - Int64.random(in: 0...20_000_000, using: &random)
            let minutes = Double.random(in: 25...95, using: &random).rounded()
            let workout = Workout(
                user: userID, sport: sport, name: "\(sport.label) \(index)", start: start,
                end: start + Int64(minutes * 60_000), source: "manual", visibility: .private)
            switch sport {
            case .running: workout.deviceDistance = minutes * 60 * 2.9
            case .cycling: workout.deviceDistance = minutes * 60 * 7.5
            case .walking: workout.deviceDistance = minutes * 60 * 1.4
            case .swimming: workout.deviceDistance = minutes * 40
            default: break
            }
            workout.summariseTyped(
                for: user, averageHeartRate: Int.random(in: 115...165, using: &random),
                steps: sport == .walking ? Int(minutes * 110) : nil)
            workouts.append(workout)
        }
        let typed = workouts
        try await app.db.inTransaction { db in
            for workout in typed { try await workout.create(on: db) }
        }
    }
}
