import Fluent
import FluentSQLiteDriver
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
    var cadence: [(t: Int64, rpm: Int)] = []

    var count: Int { heartRate.count + rr.count + locations.count + steps.count + motion.count + cadence.count }

    /// The earliest and latest sample time, or nil for an empty batch.
    var span: ClosedRange<Int64>? {
        let times = [heartRate.map(\.t), rr.map(\.t), locations.map(\.t), steps.map(\.t), motion.map(\.t), cadence.map(\.t)]
        guard let low = times.compactMap({ $0.min() }).min(), let high = times.compactMap({ $0.max() }).max() else { return nil }
        return low...high
    }

    /// Drops every sample outside `windows` and returns how many of each series went.
    mutating func keep(within windows: [ClosedRange<Int64>]) -> SeriesCounts {
        func inside(_ t: Int64) -> Bool { windows.contains { $0.contains(t) } }
        var dropped = SeriesCounts()
        func filter<T>(_ items: inout [T], _ time: (T) -> Int64, _ count: inout Int) {
            let before = items.count
            items.removeAll { !inside(time($0)) }
            count = before - items.count
        }
        filter(&heartRate, \.t, &dropped.heart_rate)
        filter(&rr, \.t, &dropped.rr)
        filter(&locations, \.t, &dropped.locations)
        filter(&steps, \.t, &dropped.steps)
        filter(&motion, \.t, &dropped.motion)
        filter(&cadence, \.t, &dropped.cadence)
        return dropped
    }
}

/// Counts per series, as the API answers them.
struct SeriesCounts: Content, Equatable {
    var heart_rate = 0
    var rr = 0
    var locations = 0
    var steps = 0
    var motion = 0
    /// Cadence comes only from files, so the samples API does not report it.
    var cadence = 0

    enum CodingKeys: String, CodingKey { case heart_rate, rr, locations, steps, motion }
}

/// Writes samples with batched multi-row inserts in one transaction. The key (person, time) makes
/// every insert idempotent: a row already there is skipped and counted as a duplicate, and the
/// per-minute heart-rate rollup is recomputed for the minutes the batch touched, so it always
/// equals the samples stored, however often a batch is retried.
enum SampleStore {
    /// A value written into the statement text: numbers (checked finite), NULL, and the six motion
    /// words (checked against a list first), which print safely; 3,600 samples as literals cost far
    /// less than as 10,800 bound parameters.
    enum Literal {
        case int(Int64), double(Double), null, text(String)

        var sql: String {
            switch self {
            case .int(let value): String(value)
            case .double(let value): value.isFinite ? String(value) : "NULL"
            case .null: "NULL"
            case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
            }
        }

        /// The same value as an SQLite bind.
        var sqlite: SQLiteData {
            switch self {
            case .int(let value): .integer(Int(value))
            case .double(let value): value.isFinite ? .float(value) : .null
            case .null: .null
            case .text(let value): .text(value)
            }
        }

        init(_ value: Double?) { self = value.map(Literal.double) ?? .null }
        init(_ value: Int?) { self = value.map { .int(Int64($0)) } ?? .null }
    }

    static func store(_ batch: SampleBatch, for userID: UUID, on db: any Database) async throws -> (stored: SeriesCounts, duplicates: SeriesCounts) {
        try await db.inTransaction { db in
            try await write(batch, for: userID, on: db as! any SQLDatabase)
        }
    }

    /// The same, inside a transaction the caller holds (a file import writes its workout with it).
    static func write(_ batch: SampleBatch, for userID: UUID, on sql: any SQLDatabase) async throws -> (stored: SeriesCounts, duplicates: SeriesCounts) {
        var stored = SeriesCounts()
        stored.heart_rate = try await insert(sql, "heart_rate_samples", ["bpm"], batch.heartRate.map { ($0.t, [Literal($0.bpm)]) }, user: userID)
        stored.rr = try await insert(sql, "rr_intervals", ["ms"], batch.rr.map { ($0.t, [Literal($0.ms)]) }, user: userID)
        stored.locations = try await insert(
            sql, "location_samples", ["lat", "lon", "ele", "accuracy", "speed"],
            batch.locations.map { ($0.t, [Literal($0.lat), Literal($0.lon), Literal($0.ele), Literal($0.accuracy), Literal($0.speed)]) },
            user: userID)
        stored.steps = try await insert(sql, "step_samples", ["count"], batch.steps.map { ($0.t, [Literal($0.count)]) }, user: userID)
        // Activities are one of six known words (checked before), so they print safely too.
        stored.motion = try await insert(
            sql, "motion_samples", ["activity", "confidence"],
            batch.motion.map { ($0.t, [.text($0.activity), Literal($0.confidence)]) }, user: userID)
        stored.cadence = try await insert(sql, "cadence_samples", ["rpm"], batch.cadence.map { ($0.t, [Literal($0.rpm)]) }, user: userID)
        if stored.heart_rate > 0, let first = batch.heartRate.map(\.t).min(), let last = batch.heartRate.map(\.t).max() {
            try await rollUp(sql, from: first, to: last, user: userID)
        }
        if stored != SeriesCounts(), let span = batch.span {
            try await WorkoutSeries.drop(user: userID, from: span.lowerBound, to: span.upperBound, on: sql)
        }
        if stored.locations > 0, let first = batch.locations.map(\.t).min(), let last = batch.locations.map(\.t).max() {
            try await SharedPartJob.positionsArrived(for: userID, from: first, to: last, on: sql)
        }
        let duplicates = SeriesCounts(
            heart_rate: batch.heartRate.count - stored.heart_rate, rr: batch.rr.count - stored.rr,
            locations: batch.locations.count - stored.locations, steps: batch.steps.count - stored.steps,
            motion: batch.motion.count - stored.motion, cadence: batch.cadence.count - stored.cadence)
        return (stored, duplicates)
    }

    private struct Count: Decodable { let n: Int }

    /// Inserts rows of (time, values), skipping times the person already has, and returns how many
    /// were new: SQLite's `changes()` and PostgreSQL's `RETURNING` count exactly the rows the
    /// conflict clause let through.
    ///
    /// The person's id is written as text, as a bound UUID is stored (SQLite) or cast (PostgreSQL):
    /// a UUID prints only hex and dashes. On SQLite the values are bound directly as SQLite values
    /// (parsing thousands of literal decimals cost more than storing them); on PostgreSQL they are
    /// written as literals, which its parser reads quickly.
    private static func insert(
        _ sql: any SQLDatabase, _ table: String, _ columns: [String],
        _ rows: [(Int64, [Literal])], user: UUID
    ) async throws -> Int {
        guard !rows.isEmpty else { return 0 }
        let sqlite = sql.dialect.name == "sqlite" ? sql as? any SQLiteDatabase : nil
        let person = "('" + user.uuidString + "', "
        let head = "INSERT INTO \(table) (user_id, t, \(columns.joined(separator: ", "))) VALUES "
        // SQLite allows 32,766 bound values per statement.
        let chunk = 2000
        var inserted = 0
        var start = 0
        while start < rows.count {
            let end = min(rows.count, start + chunk)
            if let sqlite {
                let placeholders = person + "?" + String(repeating: ", ?", count: columns.count) + ")"
                var text = head
                text.reserveCapacity(head.utf8.count + (end - start) * (placeholders.utf8.count + 2) + 40)
                var binds: [SQLiteData] = []
                binds.reserveCapacity((end - start) * (columns.count + 1))
                for index in start..<end {
                    if index > start { text += ", " }
                    text += placeholders
                    binds.append(.integer(Int(rows[index].0)))
                    for value in rows[index].1 { binds.append(value.sqlite) }
                }
                text += " ON CONFLICT (user_id, t) DO NOTHING"
                _ = try await sqlite.query(text, binds)
                inserted += try await sqlite.query("SELECT changes() AS n").first?.column("n")?.integer ?? 0
            } else {
                var text = "WITH added AS (" + head
                text.reserveCapacity(text.utf8.count + (end - start) * (person.utf8.count + 16 + columns.count * 12))
                for index in start..<end {
                    let (t, values) = rows[index]
                    if index > start { text += "), " }
                    text += person
                    text += String(t)
                    for value in values {
                        text += ", "
                        text += value.sql
                    }
                }
                text += ") ON CONFLICT (user_id, t) DO NOTHING RETURNING 1) SELECT COUNT(*) AS n FROM added"
                inserted += try await sql.raw(SQLQueryString(text)).first(decoding: Count.self)?.n ?? 0
            }
            start = end
        }
        return inserted
    }

    /// Every table of a person's time series (the heart-rate rollups aside).
    static let sampleTables = ["location_samples", "heart_rate_samples", "rr_intervals", "cadence_samples", "step_samples", "motion_samples"]

    /// All of a person's samples and their heart-rate rollup.
    static func deleteAllSamples(of user: UUID, on db: any Database) async throws {
        let sql = db as! any SQLDatabase
        for table in sampleTables + ["heart_rate_minutes", "heart_rate_quarters"] {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: user)").run()
        }
    }

    /// Removes the samples inside a workout's window, unless another of the person's workouts
    /// overlaps it (those samples are that workout's too), and brings the minute rollup up to date.
    static func deleteSamples(of workout: Workout, on db: any Database) async throws {
        guard let end = workout.endMS else { return }
        let others = try await Workout.query(on: db).filter(\.$user.$id == workout.$user.id).filter(\.$id != workout.requireID())
            .filter(\.$startMS <= end).group(.or) { $0.filter(\.$endMS >= workout.startMS).filter(\.$endMS == nil) }.count()
        guard others == 0 else { return }
        let sql = db as! any SQLDatabase
        let user = workout.$user.id
        for table in sampleTables {
            try await sql.raw(
                """
                DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: user) AND t BETWEEN \(bind: workout.startMS) AND \(bind: end)
                """
            ).run()
        }
        let firstMinute = workout.startMS / 60_000, lastMinute = end / 60_000
        try await sql.raw(
            """
            DELETE FROM heart_rate_minutes WHERE user_id = \(bind: user) AND minute BETWEEN \(bind: firstMinute) AND \(bind: lastMinute)
            """
        ).run()
        try await rollUp(sql, from: firstMinute * 60_000, to: lastMinute * 60_000 + 59_999, user: user)
    }

    /// Recomputes the per-minute heart rate for the minutes between two times from the samples.
    private static func rollUp(_ sql: any SQLDatabase, from: Int64, to: Int64, user: UUID) async throws {
        let firstMinute = from >= 0 ? from / 60_000 : (from - 59_999) / 60_000
        let lastMinute = to >= 0 ? to / 60_000 : (to - 59_999) / 60_000
        try await sql.raw(
            """
            INSERT INTO heart_rate_minutes (user_id, minute, min_bpm, max_bpm, sum_bpm, samples)
            SELECT user_id, t / 60000, MIN(bpm), MAX(bpm), SUM(bpm), COUNT(*) FROM heart_rate_samples
            WHERE user_id = \(bind: user) AND t >= \(bind: firstMinute * 60_000) AND t < \(bind: (lastMinute + 1) * 60_000)
            GROUP BY user_id, t / 60000
            ON CONFLICT (user_id, minute) DO UPDATE SET min_bpm = excluded.min_bpm, max_bpm = excluded.max_bpm,
                sum_bpm = excluded.sum_bpm, samples = excluded.samples
            """
        ).run()
        let firstQuarter = firstMinute / 15, lastQuarter = lastMinute / 15
        try await sql.raw(
            """
            DELETE FROM heart_rate_quarters WHERE user_id = \(bind: user) AND quarter BETWEEN \(bind: firstQuarter) AND \(bind: lastQuarter)
            """
        ).run()
        try await sql.raw(quarterRollUp(user: user, minutes: (firstQuarter * 15)...(lastQuarter * 15 + 14))).run()
    }

    /// Quarter-hour rows from the minute rollup, for one person's minutes in a range (or everyone's,
    /// everywhere): extremes and sums, and the lowest mean of a complete five-minute block.
    static func quarterRollUp(user: UUID?, minutes: ClosedRange<Int64>?) -> SQLQueryString {
        var filter = SQLQueryString("")
        if let user {
            filter.appendInterpolation(unsafeRaw: " AND user_id = ")
            filter.appendInterpolation(bind: user)
        }
        if let minutes {
            filter.appendInterpolation(unsafeRaw: " AND minute BETWEEN \(minutes.lowerBound) AND \(minutes.upperBound)")
        }
        return """
            INSERT INTO heart_rate_quarters (user_id, quarter, min_bpm, max_bpm, sum_bpm, samples, rest_bpm)
            SELECT q.user_id, q.quarter, q.lo, q.hi, q.total, q.n, r.rest FROM (
                SELECT user_id, minute / 15 AS quarter, MIN(min_bpm) AS lo, MAX(max_bpm) AS hi, SUM(sum_bpm) AS total, SUM(samples) AS n
                FROM heart_rate_minutes WHERE 1 = 1\(filter) GROUP BY user_id, minute / 15
            ) q LEFT JOIN (
                SELECT user_id, block / 3 AS quarter, MIN(mean) AS rest FROM (
                    SELECT user_id, minute / 5 AS block, CAST(SUM(sum_bpm) AS DOUBLE PRECISION) / SUM(samples) AS mean
                    FROM heart_rate_minutes WHERE 1 = 1\(filter) GROUP BY user_id, minute / 5 HAVING COUNT(*) = 5
                ) blocks GROUP BY user_id, block / 3
            ) r ON r.user_id = q.user_id AND r.quarter = q.quarter
            """
    }
}
