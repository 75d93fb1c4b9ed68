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
        let sql = db as! any SQLDatabase
        let nowMS = Int64(now.timeIntervalSince1970 * 1000)
        let recent = fixes.filter { $0.time > nowMS - keptMilliseconds && $0.time <= nowMS + 300_000 && $0.place.isValid }
        for chunk in stride(from: 0, to: recent.count, by: 500).map({ Array(recent[$0..<min($0 + 500, recent.count)]) }) {
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
        return try await (db as! any SQLDatabase).raw(
            "SELECT t, lat, lon, received_ms FROM ride_fixes WHERE user_id = \(bind: userID) AND t >= \(bind: from) ORDER BY t"
        ).all(decoding: Row.self).map { RideFix(time: $0.t, place: Coordinate(latitude: $0.lat, longitude: $0.lon), received: $0.received_ms) }
    }

    static func forget(_ userID: UUID, on db: any Database) async throws {
        try await (db as! any SQLDatabase).raw("DELETE FROM ride_fixes WHERE user_id = \(bind: userID)").run()
    }
}
