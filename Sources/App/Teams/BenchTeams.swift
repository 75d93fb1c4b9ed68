import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Load-test data for `make bench`: many teams spread over a country, and one team of 25.
enum BenchTeams {
    /// Adds `count` teams scattered over Denmark (about 350 × 300 km) in batched inserts, and the
    /// team "bench-25" with 25 members. Deterministic, so runs are comparable.
    static func seed(count: Int, app: Application) async throws {
        let sports = Sport.allCases.map(\.rawValue)
        let skills = TeamSkill.allCases.map(\.rawValue)
        let ages = AgeGroup.allCases.map(\.rawValue)
        let genders = TeamGender.allCases.map(\.rawValue)
        let privacies = ["public", "protected", "protected", "private"]
        let now = app.clock.now
        let columns = [
            "id", "slug", "name", "sport", "privacy", "place_name", "latitude", "longitude", "age_group",
            "gender", "skill", "description", "looking_for_players", "created_at", "updated_at",
        ]
        try await app.db.inTransaction { db in
            let sql = db.sql
            var generator = SeededGenerator(seed: 42)
            var index = 0
            while index < count {
                let batch = min(400, count - index)
                var insert = sql.insert(into: Team.schema).columns(columns)
                for offset in 0..<batch {
                    let n = index + offset
                    let lat = 54.8 + Double.random(in: 0...2.9, using: &generator)
                    let lon = 8.2 + Double.random(in: 0...4.4, using: &generator)
                    let row: [any Encodable & Sendable] = [
                        UUID(), "bench-team-\(n)", "Bench Team \(n)", sports[n % sports.count], privacies[n % privacies.count],
                        "Field \(n)", lat, lon, ages[n % ages.count], genders[n % genders.count], skills[n % skills.count],
                        "", n % 3 != 0, now, now,
                    ]
                    insert = insert.values(row.map { SQLBind($0) })
                }
                try await insert.run()
                index += batch
            }
        }

        // One team of 25: the demo people plus generated ones.
        let password = try app.password.hash("bench-password")
        var members = try await User.query(on: app.db).limit(25).all()
        var extra = 0
        while members.count < 25 {
            extra += 1
            let user = User(
                username: "bench_\(extra)", email: "bench_\(extra)@bench.invalid", passwordHash: password,
                displayName: "Bench Player \(extra)", birthDate: "1990-01-01")
            try await user.create(on: app.db)
            members.append(user)
        }
        let team = Team()
        team.slug = "bench-25"
        team.name = "Bench Twenty-Five"
        team.sport = Sport.futsal.rawValue
        team.privacy = .public
        team.placeName = "Riverside Sports Hall"
        team.latitude = 55.68
        team.longitude = 12.57
        team.ageGroup = AgeGroup.any.rawValue
        team.gender = TeamGender.any.rawValue
        team.skill = TeamSkill.any.rawValue
        team.description = "A full squad for load tests."
        team.lookingForPlayers = true
        try await team.create(on: app.db)
        for (position, member) in members.enumerated() {
            let role: Membership.Role = position == 0 ? .owner : position < 3 ? .manager : position < 5 ? .coach : .player
            try await Membership(teamID: team.requireID(), userID: member.requireID(), role: role).create(on: app.db)
        }
    }
}
