import Fluent
import SQLKit
import Vapor

/// A person's samples, checked and ready to store. Times are epoch milliseconds.
struct SampleBatch {
    struct Location { let t: Int64; let lat: Double; let lon: Double; let ele: Double?; let accuracy: Double?; let speed: Double? }

    var heartRate: [(t: Int64, bpm: Int)] = []
    var rr: [(t: Int64, ms: Double)] = []
    var locations: [Location] = []
    var steps: [(t: Int64, count: Int)] = []
    var motion: [(t: Int64, activity: String, confidence: Int?)] = []

    var count: Int { heartRate.count + rr.count + locations.count + steps.count + motion.count }
}

/// Counts per series, as the API answers them.
struct SeriesCounts: Content, Equatable {
    var heart_rate = 0
    var rr = 0
    var locations = 0
    var steps = 0
    var motion = 0
}

/// Writes samples with batched multi-row inserts in one transaction. The key (person, time) makes
/// every insert idempotent: a row already there is skipped and counted as a duplicate, and the
/// per-minute heart-rate rollup only grows by the rows that were really new.
enum SampleStore {
    static func store(_ batch: SampleBatch, for userID: UUID, on db: any Database) async throws -> (stored: SeriesCounts, duplicates: SeriesCounts) {
        try await db.transaction { db in
            let sql = db as! any SQLDatabase
            var stored = SeriesCounts()
            let newHeartRate = try await insert(sql, "heart_rate_samples", ["bpm"], batch.heartRate.map { ($0.t, [$0.bpm]) }, user: userID)
            stored.heart_rate = newHeartRate.count
            stored.rr = try await insert(sql, "rr_intervals", ["ms"], batch.rr.map { ($0.t, [$0.ms]) }, user: userID).count
            stored.locations = try await insert(sql, "location_samples", ["lat", "lon", "ele", "accuracy", "speed"],
                                                batch.locations.map { ($0.t, [$0.lat, $0.lon, $0.ele, $0.accuracy, $0.speed]) }, user: userID).count
            stored.steps = try await insert(sql, "step_samples", ["count"], batch.steps.map { ($0.t, [$0.count]) }, user: userID).count
            stored.motion = try await insert(sql, "motion_samples", ["activity", "confidence"],
                                             batch.motion.map { ($0.t, [$0.activity, $0.confidence]) }, user: userID).count
            if !newHeartRate.isEmpty {
                let bpmByTime = Dictionary(batch.heartRate.map { ($0.t, $0.bpm) }, uniquingKeysWith: { first, _ in first })
                try await rollUp(sql, newHeartRate.compactMap { t in bpmByTime[t].map { (t, $0) } }, user: userID)
            }
            let duplicates = SeriesCounts(
                heart_rate: batch.heartRate.count - stored.heart_rate, rr: batch.rr.count - stored.rr,
                locations: batch.locations.count - stored.locations, steps: batch.steps.count - stored.steps,
                motion: batch.motion.count - stored.motion)
            return (stored, duplicates)
        }
    }

    /// Inserts rows of (time, values), skipping times the person already has; returns the times
    /// that were new.
    private static func insert(_ sql: any SQLDatabase, _ table: String, _ columns: [String],
                               _ rows: [(Int64, [any Encodable & Sendable])], user: UUID) async throws -> [Int64] {
        guard !rows.isEmpty else { return [] }
        struct Inserted: Decodable { let t: Int64 }
        // Well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters per statement.
        let perStatement = max(1, min(1000, 30_000 / (columns.count + 2)))
        var inserted: [Int64] = []
        inserted.reserveCapacity(rows.count)
        var start = 0
        while start < rows.count {
            let end = min(rows.count, start + perStatement)
            let builder = sql.insert(into: table).columns(["user_id", "t"] + columns)
            for (t, values) in rows[start..<end] {
                builder.values([SQLBind(user), SQLBind(t)] + values.map { SQLBind($0) })
            }
            inserted += try await builder.ignoringConflicts(with: ["user_id", "t"]).returning("t").all(decoding: Inserted.self).map(\.t)
            start = end
        }
        return inserted
    }

    /// Adds new heart-rate samples to the per-minute table.
    private static func rollUp(_ sql: any SQLDatabase, _ samples: [(t: Int64, bpm: Int)], user: UUID) async throws {
        var minutes: [Int64: (min: Int, max: Int, sum: Int, count: Int)] = [:]
        for (t, bpm) in samples {
            let minute = t >= 0 ? t / 60_000 : (t - 59_999) / 60_000
            if let m = minutes[minute] {
                minutes[minute] = (Swift.min(m.min, bpm), Swift.max(m.max, bpm), m.sum + bpm, m.count + 1)
            } else {
                minutes[minute] = (bpm, bpm, bpm, 1)
            }
        }
        let (least, greatest) = sql.dialect.name == "sqlite" ? ("MIN", "MAX") : ("LEAST", "GREATEST")
        let rows = minutes.sorted { $0.key < $1.key }
        for chunk in stride(from: 0, to: rows.count, by: 1000) {
            let builder = sql.insert(into: "heart_rate_minutes").columns("user_id", "minute", "min_bpm", "max_bpm", "sum_bpm", "samples")
            for (minute, m) in rows[chunk..<min(rows.count, chunk + 1000)] {
                builder.values([SQLBind(user), SQLBind(minute), SQLBind(m.min), SQLBind(m.max), SQLBind(Int64(m.sum)), SQLBind(m.count)])
            }
            try await builder.onConflict(with: ["user_id", "minute"]) { update in
                update.set("min_bpm", to: SQLRaw("\(least)(heart_rate_minutes.min_bpm, excluded.min_bpm)"))
                    .set("max_bpm", to: SQLRaw("\(greatest)(heart_rate_minutes.max_bpm, excluded.max_bpm)"))
                    .set("sum_bpm", to: SQLRaw("heart_rate_minutes.sum_bpm + excluded.sum_bpm"))
                    .set("samples", to: SQLRaw("heart_rate_minutes.samples + excluded.samples"))
            }.run()
        }
    }
}
