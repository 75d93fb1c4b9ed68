import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Load-test data for `make bench`: `bench_social` (password `bench-password`) with 300 friends,
/// who logged 200,000 workouts between them over two years, shared with followers. Written in one
/// transaction, so a failed run leaves nothing and the next one starts again.
enum BenchCommunity {
    static let username = "bench_social"
    static let friends = 300
    static let workouts = 200_000

    /// Returns whether it added anything (nothing once bench_social exists).
    static func seed(app: Application) async throws -> Bool {
        let password = try app.password.hash("bench-password")
        let now = app.clock.now, nowMS = app.clock.milliseconds
        return try await app.db.inTransaction { db -> Bool in
            guard try await User.query(on: db).filter(\.$username == username).first() == nil else { return false }
            let me = User(username: username, email: "\(username)@bench.invalid", passwordHash: password, displayName: "Bench Social", birthDate: "1994-06-01")
            try await me.create(on: db)
            let meID = try me.requireID()
            var friendIDs: [UUID] = []
            for n in 1...friends {
                let friend = User(
                    username: "bench_friend_\(n)", email: "bench_friend_\(n)@bench.invalid", passwordHash: password,
                    displayName: "Bench Friend \(n)", birthDate: "1990-01-01")
                friend.visibility = .followers
                try await friend.create(on: db)
                friendIDs.append(try friend.requireID())
            }
            let sql = db.sql
            var follows = sql.insert(into: Follow.schema).columns("id", "follower_id", "followee_id", "status", "created_at")
            for friend in friendIDs {
                follows = follows.values([SQLBind(UUID()), SQLBind(meID), SQLBind(friend), SQLBind("accepted"), SQLBind(now)])
                follows = follows.values([SQLBind(UUID()), SQLBind(friend), SQLBind(meID), SQLBind("accepted"), SQLBind(now)])
            }
            try await follows.run()
            var random = SeededGenerator(seed: 21)
            let columns = [
                "id", "user_id", "sport", "name", "start_ms", "shared_start_ms", "end_ms", "source", "visibility", "duration_s", "moving_s", "distance_m",
                "streams", "created_at", "updated_at",
            ]
            var index = 0
            while index < workouts {
                let batch = min(500, workouts - index)
                var insert = sql.insert(into: "workouts").columns(columns)
                for offset in 0..<batch {
                    let start = nowMS - Int64.random(in: 3_600_000...(730 * 86_400_000), using: &random)
                    let seconds = Double.random(in: 1200...5400, using: &random).rounded()
                    let values: [any Encodable & Sendable] = [
                        UUID(), friendIDs[(index + offset) % friendIDs.count], "running", "Bench run", start, start, start + Int64(seconds * 1000), "manual",
                        "followers", seconds, seconds, (seconds * 2.8).rounded(), "", now, now,
                    ]
                    insert = insert.values(values.map { SQLBind($0) })
                }
                try await insert.run()
                index += batch
            }
            return true
        }
    }
}
