import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// The live positions of people with rewards on, kept an hour for judging a check-in's ride.
enum RideFixes {
    static let schema = "ride_fixes"
    /// How long positions are kept: longer than any ride a check-in looks at.
    static let keptMilliseconds: Int64 = 3_600_000

    /// Keeps the positions just received, for a person with rewards on (nothing otherwise), and
    /// forgets theirs older than an hour. A position sent twice is kept once, with its first arrival.
    static func keep(_ fixes: [RideFix], for userID: UUID, now: Date, on db: any Database) async throws {
        guard !fixes.isEmpty, try await CyclingStatus.query(on: db).filter(\.$user.$id == userID).first() != nil else { return }
        let sql = db.sql
        let nowMS = Int64(now.timeIntervalSince1970 * 1000)
        // One a second at most, and an hour's worth a request: what a ride needs, and a bound on what
        // one person can make the server keep and sort.
        var seconds = Set<Int64>()
        let recent = fixes.filter { $0.time > nowMS - keptMilliseconds && $0.time <= nowMS + 30_000 && $0.place.isValid }
            .filter { seconds.insert($0.time / 1000).inserted }.prefix(3600)
        let kept = Array(recent)
        for chunk in stride(from: 0, to: kept.count, by: 500).map({ Array(kept[$0..<min($0 + 500, kept.count)]) }) {
            var insert = sql.insert(into: schema).columns("user_id", "t", "lat", "lon", "received_ms")
            for fix in chunk {
                insert = insert.values([SQLBind(userID), SQLBind(fix.time), SQLBind(fix.place.latitude), SQLBind(fix.place.longitude), SQLBind(fix.received)])
            }
            try await insert.ignoringConflicts(with: ["user_id", "t"]).run()
        }
        try await sql.raw("DELETE FROM ride_fixes WHERE user_id = \(bind: userID) AND t < \(bind: nowMS - keptMilliseconds)").run()
    }

    /// The person's positions taken since `from` (ms).
    static func since(_ from: Int64, for userID: UUID, on db: any Database) async throws -> [RideFix] {
        struct Row: Decodable {
            let t: Int64
            let lat: Double
            let lon: Double
            let received_ms: Int64
        }
        return try await db.sql.raw(
            "SELECT t, lat, lon, received_ms FROM ride_fixes WHERE user_id = \(bind: userID) AND t >= \(bind: from) ORDER BY t LIMIT 7200"
        ).all(decoding: Row.self).map { RideFix(time: $0.t, place: Coordinate(latitude: $0.lat, longitude: $0.lon), received: $0.received_ms) }
    }

    /// Every ten minutes: positions older than an hour go, whoever stopped sending.
    static let sweepKind = JobKind("places.ride-fixes", every: 600) { run in
        let cutoff = Int64(run.now.timeIntervalSince1970 * 1000) - keptMilliseconds
        try await run.db.sql.raw("DELETE FROM ride_fixes WHERE t < \(bind: cutoff)").run()
    }

    /// The person's kept positions, for their account export.
    static func all(of userID: UUID, on db: any Database) async throws -> [RideFix] {
        try await since(.min, for: userID, on: db)
    }

    static func forget(_ userID: UUID, on db: any Database) async throws {
        try await db.sql.raw("DELETE FROM ride_fixes WHERE user_id = \(bind: userID)").run()
    }
}
