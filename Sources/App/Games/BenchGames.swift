import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Load-test data for `make bench`: many upcoming games over a country, a game with 30 players,
/// and 300 games on the calendar of the demo person maya (through the team "bench-25").
enum BenchGames {
    static let bigGameID = UUID(uuidString: "00000000-0000-4000-8000-000000000030")!

    static func seed(count: Int, app: Application) async throws {
        let sports = Sport.allCases.map(\.rawValue)
        let skills = TeamSkill.allCases.map(\.rawValue)
        let ages = AgeGroup.allCases.map(\.rawValue)
        let genders = TeamGender.allCases.map(\.rawValue)
        let now = app.clock.now
        let organiser = try await User.query(on: app.db).sort(\.$createdAt).first()!.requireID()
        guard let team = try await Team.query(on: app.db).filter(\.$slug == "bench-25").first() else {
            throw Abort(.internalServerError, reason: "Seed bench teams first (--bench-teams).")
        }
        let columns = [
            "id", "kind", "team_id", "organiser_id", "sport", "age_group", "gender", "skill", "privacy", "starts_at",
            "duration_minutes", "time_zone", "place_name", "latitude", "longitude", "find_lat", "find_lon", "description", "capacity", "min_players",
            "joined_count", "subs_needed", "subs_filled", "status", "sequence", "created_at", "updated_at",
        ]
        @Sendable func row(
            id: UUID, kind: Game.Kind, team: UUID?, sport: String, age: String, gender: String, skill: String, privacy: String,
            start: Date, lat: Double, lon: Double, capacity: Int?, subs: Int
        ) -> [any Encodable & Sendable] {
            [
                id, kind.rawValue, team, organiser, sport, age, gender, skill, privacy, start, 90, "Europe/Copenhagen", "Court", lat, lon,
                privacy == "public" ? lat : (lat * 10).rounded() / 10, privacy == "public" ? lon : (lon * 10).rounded() / 10,
                "", capacity, capacity.map { _ in 2 }, 0, subs, 0, "scheduled", 0, now, now,
            ]
        }
        try await app.db.inTransaction { db in
            let sql = db.sql
            var generator = SeededGenerator(seed: 7)
            var index = 0
            while index < count {
                let batch = min(400, count - index)
                var insert = sql.insert(into: Game.schema).columns(columns)
                for offset in 0..<batch {
                    let n = index + offset
                    let lat = 54.8 + Double.random(in: 0...2.9, using: &generator)
                    let lon = 8.2 + Double.random(in: 0...4.4, using: &generator)
                    let start = now.addingTimeInterval(Double.random(in: 3600...(60 * 86_400), using: &generator))
                    let values = row(
                        id: UUID(), kind: .pickup, team: nil, sport: sports[n % sports.count], age: ages[n % ages.count],
                        gender: genders[n % genders.count], skill: skills[n % skills.count],
                        privacy: n % 3 == 0 ? "protected" : "public", start: start, lat: lat, lon: lon,
                        capacity: 4 + n % 20, subs: 0)
                    insert = insert.values(values.map { SQLBind($0) })
                }
                try await insert.run()
                index += batch
            }

            // 300 games of bench-25, weekly, the first one with 25 members and 5 substitutes answering.
            let teamID = try team.requireID()
            var insert = sql.insert(into: Game.schema).columns(columns)
            for week in 0..<300 {
                let id = week == 0 ? bigGameID : UUID()
                let values = row(
                    id: id, kind: .team, team: teamID, sport: team.sport, age: team.ageGroup, gender: team.gender,
                    skill: team.skill, privacy: team.privacy.rawValue, start: now.addingTimeInterval(Double(week - 100) * 7 * 86_400 + 86_400),
                    lat: 55.68, lon: 12.57, capacity: nil, subs: week == 0 ? 5 : 0)
                insert = insert.values(values.map { SQLBind($0) })
            }
            try await insert.run()
        }
        let members = try await Membership.query(on: app.db).filter(\.$team.$id == team.requireID()).all().map { $0.$user.id }
        let password = try app.password.hash("bench-password")
        var subs: [UUID] = []
        for n in 1...5 {
            let user = User(
                username: "bench_sub_\(n)", email: "bench_sub_\(n)@bench.invalid", passwordHash: password,
                displayName: "Bench Substitute \(n)", birthDate: "1990-01-01")
            try await user.create(on: app.db)
            subs.append(try user.requireID())
        }
        let statuses: [GamePlayer.Status] = [.going, .going, .maybe, .notGoing]
        for (n, member) in members.enumerated() {
            try await GamePlayer(
                gameID: bigGameID, userID: member, status: statuses[n % statuses.count], note: n % 5 == 0 ? "Running late" : nil, at: app.clock.now
            ).create(
                on: app.db)
        }
        for sub in subs { try await GamePlayer(gameID: bigGameID, userID: sub, status: .going, isSub: true, at: app.clock.now).create(on: app.db) }
        try await app.db.sql.raw("UPDATE games SET subs_filled = 5 WHERE id = \(bind: bigGameID)").run()
    }
}
