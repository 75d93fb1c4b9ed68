import FieldhouseKit
import Fluent
import Vapor

/// Load-test data for `make bench`: `bench_coach` (password `bench-password`) coaching 40
/// athletes with two years of workouts each, a goal and this week's plans. Deterministic, so runs
/// are comparable.
enum BenchCoaching {
    static let coach = "bench_coach"

    static func seed(app: Application) async throws {
        guard try await User.query(on: app.db).filter(\.$username == coach).first() == nil else { return }
        let password = try app.password.hash("bench-password")
        let coachUser = User(username: coach, email: "\(coach)@bench.invalid", passwordHash: password, displayName: "Bench Coach", birthDate: "1980-01-01")
        try await coachUser.create(on: app.db)
        let coachID = try coachUser.requireID()
        var random = SeededGenerator(seed: 40)
        let now = app.clock.milliseconds
        let monday = ReportPeriod.week.start(containing: app.clock.today)
        let sports: [WorkoutSport] = [.running, .cycling, .running, .swimming, .strength, .walking]
        for index in 0..<40 {
            let athlete = User(
                username: "bench_squad_\(index)", email: "bench_squad_\(index)@bench.invalid", passwordHash: password,
                displayName: "Squad Athlete \(index)", birthDate: "2000-01-01")
            athlete.weightKg = 65
            try await athlete.create(on: app.db)
            let athleteID = try athlete.requireID()
            let grant = CoachGrant(coach: coachID, athlete: athleteID, requestedBy: .coach)
            grant.status = .active
            try await grant.create(on: app.db)
            // Two years, four sessions a week or so.
            var workouts: [Workout] = []
            var start = now - 730 * 86_400_000
            while start < now - 3_600_000 {
                let sport = sports[Int.random(in: 0..<sports.count, using: &random)]
                let minutes = Double.random(in: 25...100, using: &random).rounded()
                let workout = Workout(
                    user: athleteID, sport: sport, name: sport.label, start: start, end: start + Int64(minutes * 60_000),
                    source: "manual", visibility: .private)
                if sport == .running { workout.deviceDistance = minutes * 60 * 2.8 }
                if sport == .cycling { workout.deviceDistance = minutes * 60 * 7 }
                workout.summariseTyped(for: athlete, averageHeartRate: Int.random(in: 115...170, using: &random), steps: nil)
                workouts.append(workout)
                start += Int64.random(in: 30...55, using: &random) * 3_600_000
            }
            let made = workouts
            try await app.db.inTransaction { db in
                for workout in made { try await workout.create(on: db) }
                try await Goal(user: athleteID, period: .week, metric: .duration, target: 240 * 60).create(on: db)
                for offset in [0, 2, 4] {
                    try await PlannedWorkout(
                        coach: coachID, athlete: athleteID, day: monday.adding(days: offset).description, sport: .running,
                        duration: 3000, distance: nil, description: "Bench plan"
                    ).create(on: db)
                }
            }
        }
    }
}
