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

/// Writes samples in one transaction, one statement per series and batch (SQLite: multi-row
/// `VALUES` with bound values; PostgreSQL: the columns bound as arrays and `UNNEST`ed, so the
/// statement stays a few lines long however many samples come). The key (person, time) makes every
/// insert idempotent: a row already there is skipped and counted as a duplicate. The per-minute
/// heart-rate rollup always equals the samples stored, however often a batch is retried: a batch
/// stored whole adds its minutes to the rollup; one with duplicates recomputes the minutes it touched.
enum SampleStore {
    /// One column of a series: what each row holds there.
    enum Column {
        case integers([Int64?])
        case reals([Double?])
        /// Activities: one of six known words, checked before.
        case words([String])

        /// Row `index` as an SQLite bind.
        func sqlite(_ index: Int) -> SQLiteData {
            switch self {
            case .integers(let values): values[index].map { .integer(Int($0)) } ?? .null
            case .reals(let values): values[index].flatMap { $0.isFinite ? .float($0) : nil } ?? .null
            case .words(let values): .text(values[index])
            }
        }
    }

    static func store(
        _ batch: SampleBatch, for userID: UUID, on db: any Database, writers: SQLiteWriters? = nil
    ) async throws -> (stored: SeriesCounts, duplicates: SeriesCounts) {
        let transaction = {
            try await db.inTransaction { db in
                try await write(batch, for: userID, on: db.sql)
            }
        }
        guard let writers else { return try await transaction() }
        return try await writers.write(on: db, transaction)
    }

    /// The same, inside a transaction the caller holds (a file import writes its workout with it).
    static func write(_ batch: SampleBatch, for userID: UUID, on sql: any SQLDatabase) async throws -> (stored: SeriesCounts, duplicates: SeriesCounts) {
        var stored = SeriesCounts()
        stored.heart_rate = try await insert(
            sql, "heart_rate_samples", batch.heartRate.map(\.t), [("bpm", .integers(batch.heartRate.map { Int64($0.bpm) }))], user: userID)
        stored.rr = try await insert(sql, "rr_intervals", batch.rr.map(\.t), [("ms", .reals(batch.rr.map(\.ms)))], user: userID)
        stored.locations = try await insert(
            sql, "location_samples", batch.locations.map(\.t),
            [
                ("lat", .reals(batch.locations.map(\.lat))), ("lon", .reals(batch.locations.map(\.lon))),
                ("ele", .reals(batch.locations.map(\.ele))), ("accuracy", .reals(batch.locations.map(\.accuracy))),
                ("speed", .reals(batch.locations.map(\.speed))),
            ], user: userID)
        stored.steps = try await insert(
            sql, "step_samples", batch.steps.map(\.t), [("count", .integers(batch.steps.map { Int64($0.count) }))], user: userID)
        stored.motion = try await insert(
            sql, "motion_samples", batch.motion.map(\.t),
            [("activity", .words(batch.motion.map(\.activity))), ("confidence", .integers(batch.motion.map { $0.confidence.map(Int64.init) }))],
            user: userID)
        stored.cadence = try await insert(
            sql, "cadence_samples", batch.cadence.map(\.t), [("rpm", .integers(batch.cadence.map { Int64($0.rpm) }))], user: userID)
        if stored.heart_rate > 0, let first = batch.heartRate.map(\.t).min(), let last = batch.heartRate.map(\.t).max() {
            if stored.heart_rate == batch.heartRate.count {
                // Every sample was new: the minutes they fall in grow by exactly them.
                try await addMinutes(sql, batch.heartRate, user: userID)
                try await rollUpQuarters(sql, from: first, to: last, user: userID)
            } else {
                try await rollUp(sql, from: first, to: last, user: userID)
            }
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
    /// On SQLite the person's id is written as text, as a bound UUID is stored (a UUID prints only
    /// hex and dashes), and the values are bound as SQLite values. On PostgreSQL each column is one
    /// array parameter: the statement is parsed and planned once per batch, not once per row, and
    /// the numbers travel in binary.
    private static func insert(
        _ sql: any SQLDatabase, _ table: String, _ times: [Int64], _ columns: [(name: String, values: Column)], user: UUID
    ) async throws -> Int {
        guard !times.isEmpty else { return 0 }
        let names = columns.map(\.name).joined(separator: ", ")
        guard sql.dialect.name == "sqlite", let sqlite = sql as? any SQLiteDatabase else {
            return try await insertUnnested(sql, table, times, columns, user: user)
        }
        let person = "('" + user.uuidString + "', "
        let head = "INSERT INTO \(table) (user_id, t, \(names)) VALUES "
        let placeholders = person + "?" + String(repeating: ", ?", count: columns.count) + ")"
        // An hour at 1 Hz is one statement; more rows to a statement save little and hold the
        // compiled statement (a few hundred bytes a row) in memory longer.
        let chunk = 4_000
        var inserted = 0
        var start = 0
        while start < times.count {
            let end = min(times.count, start + chunk)
            var text = head
            text.reserveCapacity(head.utf8.count + (end - start) * (placeholders.utf8.count + 2) + 40)
            var binds: [SQLiteData] = []
            binds.reserveCapacity((end - start) * (columns.count + 1))
            for index in start..<end {
                if index > start { text += ", " }
                text += placeholders
                binds.append(.integer(Int(times[index])))
                for column in columns { binds.append(column.values.sqlite(index)) }
            }
            text += " ON CONFLICT (user_id, t) DO NOTHING"
            _ = try await sqlite.query(text, binds)
            inserted += try await sqlite.query("SELECT changes() AS n").first?.column("n")?.integer ?? 0
            start = end
        }
        return inserted
    }

    /// PostgreSQL: `INSERT ... SELECT FROM UNNEST($2::int8[], ...)`. Arrays carry no NULLs here, so
    /// a missing number travels as NaN (reals) or the smallest Int64 (integers) and `NULLIF` turns it
    /// back; neither is a value a checked sample can have.
    private static func insertUnnested(
        _ sql: any SQLDatabase, _ table: String, _ times: [Int64], _ columns: [(name: String, values: Column)], user: UUID
    ) async throws -> Int {
        var query = SQLQueryString("WITH added AS (INSERT INTO ")
        query.appendInterpolation(unsafeRaw: "\(table) (user_id, t, \(columns.map(\.name).joined(separator: ", "))) SELECT ")
        query.appendInterpolation(bind: user)
        query.appendInterpolation(unsafeRaw: "::uuid, u.t")
        for (index, column) in columns.enumerated() {
            switch column.values {
            case .integers: query.appendInterpolation(unsafeRaw: ", NULLIF(u.c\(index), \(Int64.min))")
            case .reals: query.appendInterpolation(unsafeRaw: ", NULLIF(u.c\(index), 'NaN')")
            case .words: query.appendInterpolation(unsafeRaw: ", u.c\(index)")
            }
        }
        query.appendInterpolation(unsafeRaw: " FROM UNNEST(")
        query.appendInterpolation(bind: times)
        query.appendInterpolation(unsafeRaw: "::int8[]")
        for column in columns {
            query.appendInterpolation(unsafeRaw: ", ")
            switch column.values {
            case .integers(let values):
                query.appendInterpolation(bind: values.map { $0 ?? Int64.min })
                query.appendInterpolation(unsafeRaw: "::int8[]")
            case .reals(let values):
                query.appendInterpolation(bind: values.map { value in value.flatMap { $0.isFinite ? $0 : nil } ?? .nan })
                query.appendInterpolation(unsafeRaw: "::float8[]")
            case .words(let values):
                query.appendInterpolation(bind: values)
                query.appendInterpolation(unsafeRaw: "::text[]")
            }
        }
        query.appendInterpolation(
            unsafeRaw:
                ") AS u(t\((0..<columns.count).map { ", c\($0)" }.joined())) ON CONFLICT (user_id, t) DO NOTHING RETURNING 1) SELECT COUNT(*) AS n FROM added"
        )
        return try await sql.raw(query).first(decoding: Count.self)?.n ?? 0
    }

    /// Every table of a person's time series (the heart-rate rollups aside).
    static let sampleTables = ["location_samples", "heart_rate_samples", "rr_intervals", "cadence_samples", "step_samples", "motion_samples"]

    /// All of a person's samples and their heart-rate rollup.
    static func deleteAllSamples(of user: UUID, on db: any Database) async throws {
        let sql = db.sql
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
        let sql = db.sql
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

    /// The minute of a time in milliseconds, rounded down (also before 1970).
    private static func minute(_ t: Int64) -> Int64 { t >= 0 ? t / 60_000 : (t - 59_999) / 60_000 }

    /// Recomputes the per-minute heart rate for the minutes between two times from the samples.
    private static func rollUp(_ sql: any SQLDatabase, from: Int64, to: Int64, user: UUID) async throws {
        let firstMinute = minute(from), lastMinute = minute(to)
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
        try await rollUpQuarters(sql, from: from, to: to, user: user)
    }

    /// Adds samples just stored, every one of them new, to the minutes they fall in: the rollup of
    /// a minute is its samples' extremes, sum and count, so the new ones merge into what is there
    /// without reading the samples back (which cost a fifth of a batch).
    private static func addMinutes(_ sql: any SQLDatabase, _ samples: [(t: Int64, bpm: Int)], user: UUID) async throws {
        var minutes: [Int64: (low: Int, high: Int, sum: Int, count: Int)] = [:]
        for sample in samples {
            let key = minute(sample.t)
            if let known = minutes[key] {
                minutes[key] = (min(known.low, sample.bpm), max(known.high, sample.bpm), known.sum + sample.bpm, known.count + 1)
            } else {
                minutes[key] = (sample.bpm, sample.bpm, sample.bpm, 1)
            }
        }
        // Whole numbers in the statement's text: a batch of an hour is 60 short rows.
        let (least, greatest) = sql.dialect.name == "sqlite" ? ("MIN", "MAX") : ("LEAST", "GREATEST")
        let rows = minutes.sorted { $0.key < $1.key }
        var start = 0
        while start < rows.count {
            let end = min(rows.count, start + 1_000)
            var text = "INSERT INTO heart_rate_minutes (user_id, minute, min_bpm, max_bpm, sum_bpm, samples) VALUES "
            for index in start..<end {
                let (key, value) = rows[index]
                if index > start { text += ", " }
                text += "('\(user.uuidString)', \(key), \(value.low), \(value.high), \(value.sum), \(value.count))"
            }
            text += """
                 ON CONFLICT (user_id, minute) DO UPDATE SET min_bpm = \(least)(heart_rate_minutes.min_bpm, excluded.min_bpm), \
                max_bpm = \(greatest)(heart_rate_minutes.max_bpm, excluded.max_bpm), sum_bpm = heart_rate_minutes.sum_bpm + excluded.sum_bpm, \
                samples = heart_rate_minutes.samples + excluded.samples
                """
            try await sql.raw(SQLQueryString(text)).run()
            start = end
        }
    }

    /// Recomputes the quarter-hour rows for the quarters between two times from the minute rollup.
    private static func rollUpQuarters(_ sql: any SQLDatabase, from: Int64, to: Int64, user: UUID) async throws {
        let firstQuarter = minute(from) / 15, lastQuarter = minute(to) / 15
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
