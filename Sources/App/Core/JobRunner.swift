import Fluent
import FluentSQLiteDriver
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Runs the jobs in the `jobs` table. Every server process has one: it polls for due jobs, leases a
/// batch (on PostgreSQL with `FOR UPDATE SKIP LOCKED`, so processes never take the same job; on
/// SQLite the single writer does the same), and runs each inside a transaction that also marks it
/// done. A job that throws is tried again later, backing off; after `maxAttempts` it is failed and
/// waits for an admin. Scheduled kinds are enqueued with a key per occurrence, so however many
/// processes poll, each occurrence runs once.
final class JobRunner: Sendable {
    static let maxAttempts = 5
    /// The wait before the second, third, fourth and fifth attempt.
    static let backoff: [TimeInterval] = [60, 300, 1800, 7200]
    /// How long a process may hold a job before another may take it (`FIELDHOUSE_JOB_LEASE_SECONDS`,
    /// 5 minutes unless set). A process renews the leases of what it works on (`keepLeases`), so
    /// this is how soon the work of a process that died is taken over, not a limit on a job's length.
    let leaseDuration: TimeInterval
    /// Done jobs are kept this long, for `fieldhouse jobs` and the admin page.
    static let keepDone: TimeInterval = 7 * 86_400

    let kinds: [String: JobKind]
    /// Names this process in `lease_owner`.
    let owner: String
    private let loop = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// The occurrence each scheduled kind was last enqueued for by this process, so a poll every
    /// two seconds does not ask the database sixty times a minute.
    private let scheduled = NIOLockedValueBox<[String: Double]>([:])

    init(kinds: [JobKind], lease: TimeInterval = 300) {
        self.leaseDuration = lease
        let pruning = JobKind("jobs.prune", every: 3600) { run in
            // Done jobs, and failed runs of scheduled kinds (a later occurrence did their work).
            let scheduled = run.app.jobs.kinds.values.filter { $0.every != nil }.map(\.name)
            try await Job.query(on: run.db).group(.or) { $0.filter(\.$state == .done).filter(\.$kind ~~ scheduled) }
                .filter(\.$state != .queued).filter(\.$finishedAt < run.now.addingTimeInterval(-JobRunner.keepDone)).delete()
        }
        self.kinds = Dictionary((kinds + [pruning]).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        owner = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8).lowercased())"
    }

    // MARK: Adding work

    /// Adds a job of `kind` due at `at`. With a `key`, a job with the same key already in the table
    /// (queued, done or failed) means this one is not added: enqueueing is safe to repeat.
    func enqueue(_ kind: String, payload: some Encodable = NoPayload(), at: Date, key: String? = nil, on db: any Database) async throws {
        precondition(kinds[kind] != nil, "no job kind \(kind)")
        try await Job.enqueue(kind, payload: payload, at: at, key: key, on: db)
    }

    /// Enqueues the current occurrence of every scheduled kind.
    func schedule(now: Date, on db: any Database) async throws {
        for kind in kinds.values.sorted(by: { $0.name < $1.name }) {
            guard let every = kind.every else { continue }
            let slot = (now.timeIntervalSince1970 / every).rounded(.down) * every
            guard scheduled.withLockedValue({ $0[kind.name] }) != slot else { continue }
            try await enqueue(kind.name, at: Date(timeIntervalSince1970: slot), key: "\(kind.name)@\(Int(slot))", on: db)
            scheduled.withLockedValue { $0[kind.name] = slot }
        }
    }

    // MARK: Running

    /// Schedules what is due, then runs due jobs until none is left or `limit` have run. Returns
    /// how many ran (successfully or not). Tests call this after moving the clock; `fieldhouse
    /// serve` calls it from its loop.
    @discardableResult
    func runDue(_ app: Application, limit: Int = 1_000) async throws -> Int {
        try await schedule(now: app.clock.now, on: app.db)
        try await failAbandoned(now: app.clock.now, on: app.db)
        var ran = 0
        // A few at a time: every job of a batch shares one lease, which must not run out while
        // the batch's earlier jobs run.
        while ran < limit, !Task.isCancelled {
            let batch = try await lease(now: app.clock.now, limit: min(4, limit - ran), on: app.db)
            guard !batch.isEmpty else { break }
            let heartbeat = keepLeases(of: batch.map(\.id), app: app)
            for job in batch { await run(job, app: app) }
            heartbeat.cancel()
            ran += batch.count
        }
        return ran
    }

    private struct Leased: Decodable {
        let id: UUID
        let kind: String
        let payload: String
        let run_at: Date
        let attempts: Int
    }

    /// A job whose process died (or hung) every time it ran never reaches the error handler that
    /// counts failures: once its lease is out after the last attempt, it is failed here.
    private func failAbandoned(now: Date, on db: any Database) async throws {
        try await db.sql.raw(
            """
            UPDATE jobs SET state = \(bind: Job.State.failed.rawValue), finished_at = \(bind: now), lease_owner = NULL, lease_until = NULL,
                last_error = \(bind: "Its process stopped or hung on each of \(Self.maxAttempts) attempts.")
            WHERE state = \(bind: Job.State.queued.rawValue) AND attempts >= \(literal: Self.maxAttempts) AND lease_until < \(bind: now)
            """
        ).run()
    }

    /// Takes up to `limit` due jobs for this process, oldest first: only kinds this version knows
    /// (during a rolling upgrade, an older process leaves newer kinds to the newer processes).
    private func lease(now: Date, limit: Int, on db: any Database) async throws -> [Leased] {
        let sql = db.sql
        // PostgreSQL lets two processes lease at once and skips rows another holds; SQLite has one
        // writer at a time, which serialises the same statement.
        let skipLocked: SQLQueryString = sql.dialect.name == "sqlite" ? "" : " FOR UPDATE SKIP LOCKED"
        return try await sql.raw(
            """
            UPDATE jobs SET lease_owner = \(bind: owner), lease_until = \(bind: now.addingTimeInterval(leaseDuration)), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM jobs
                WHERE state = \(bind: Job.State.queued.rawValue) AND run_at <= \(bind: now) AND (lease_until IS NULL OR lease_until < \(bind: now))
                  AND attempts < \(literal: Self.maxAttempts) AND kind IN (\(binds: kinds.keys.sorted()))
                ORDER BY run_at LIMIT \(literal: limit)\(skipLocked)
            )
            RETURNING id, kind, payload, run_at, attempts
            """
        ).all(decoding: Leased.self).sorted { $0.run_at < $1.run_at }
    }

    /// Renews the leases of a batch every third of a lease while this process works on it: a long
    /// job (a big account's export) would otherwise outlast its lease and be taken again by another
    /// process while it still runs. A process that dies stops renewing, so its jobs are still taken
    /// over one lease after its last sign of life.
    private func keepLeases(of ids: [UUID], app: Application) -> Task<Void, Never> {
        Task { [owner, leaseDuration] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(leaseDuration / 3))
                guard !Task.isCancelled else { return }
                try? await app.db.sql.raw(
                    """
                    UPDATE jobs SET lease_until = \(bind: app.clock.now.addingTimeInterval(leaseDuration))
                    WHERE id IN (\(binds: ids)) AND lease_owner = \(bind: owner) AND state = \(bind: Job.State.queued.rawValue)
                    """
                ).run()
            }
        }
    }

    /// The lease ran out and another process took the job: what this run wrote is rolled back.
    private struct LeaseLost: Error {}

    private func run(_ job: Leased, app: Application) async {
        let now = app.clock.now
        do {
            guard let kind = kinds[job.kind] else { throw JobGaveUp(description: "No job kind \(job.kind) in this version of Fieldhouse.") }
            let finish: @Sendable (any Database) async throws -> Void = { db in
                let finished = try await db.sql.raw(
                    """
                    UPDATE jobs SET state = \(bind: Job.State.done.rawValue), finished_at = \(bind: app.clock.now), lease_owner = NULL, lease_until = NULL,
                        last_error = NULL
                    WHERE id = \(bind: job.id) AND lease_owner = \(bind: self.owner)
                    RETURNING id
                    """
                ).all()
                guard !finished.isEmpty else { throw LeaseLost() }
            }
            if kind.transactional {
                try await app.db.inTransaction { db in
                    // Write first: on SQLite that takes the write lock at once. A transaction that
                    // read first could not write later if this process's lease heartbeat wrote in
                    // between (a stale snapshot), and the job would be rolled back and run again.
                    let held = try await db.sql.raw(
                        """
                        UPDATE jobs SET lease_owner = lease_owner WHERE id = \(bind: job.id) AND lease_owner = \(bind: self.owner)
                        RETURNING id
                        """
                    ).all()
                    guard !held.isEmpty else { throw LeaseLost() }
                    try await kind.run(JobRun(id: job.id, kind: job.kind, payload: job.payload, due: job.run_at, now: now, db: db, app: app))
                    try await finish(db)
                }
            } else {
                try await kind.run(JobRun(id: job.id, kind: job.kind, payload: job.payload, due: job.run_at, now: now, db: app.db, app: app))
                try await finish(app.db)
            }
        } catch is LeaseLost {
            app.logger.warning("Job \(job.kind) \(job.id) outran its lease; another process runs it.")
        } catch let error as SQLiteError where [.busy, .busyInSnapshot, .busyTimeout, .locked].contains(error.reason) {
            // Another process wrote to the SQLite file between this job's read and its write: not
            // the job's fault, so it is put back to run again at once, the attempt not counted.
            try? await app.db.sql.raw(
                """
                UPDATE jobs SET attempts = attempts - 1, lease_owner = NULL, lease_until = NULL
                WHERE id = \(bind: job.id) AND lease_owner = \(bind: owner)
                """
            ).run()
        } catch {
            let gaveUp = error is JobGaveUp || job.attempts >= Self.maxAttempts
            let failedAt = app.clock.now
            let retryAt = failedAt.addingTimeInterval(Self.backoff[min(max(job.attempts - 1, 0), Self.backoff.count - 1)])
            app.logger.error("Job \(job.kind) \(job.id) failed (attempt \(job.attempts)): \(String(reflecting: error))")
            app.metrics.jobFailed(kind: job.kind)
            do {
                try await app.db.sql.raw(
                    """
                    UPDATE jobs SET state = \(bind: (gaveUp ? Job.State.failed : .queued).rawValue), run_at = \(bind: gaveUp ? job.run_at : retryAt),
                        last_error = \(bind: String(String(describing: error).prefix(1_000))), lease_owner = NULL, lease_until = NULL,
                        finished_at = \(bind: gaveUp ? failedAt : nil)
                    WHERE id = \(bind: job.id) AND lease_owner = \(bind: owner)
                    """
                ).run()
            } catch {
                // The database is away: the lease runs out and the job is taken again then.
                app.logger.error("Could not record the failure of job \(job.id): \(error)")
            }
        }
    }

    /// Puts a failed job back in the queue, due now, with its attempts counted afresh.
    func retry(_ id: UUID, now: Date, on db: any Database) async throws -> Bool {
        let rows = try await db.sql.raw(
            """
            UPDATE jobs SET state = \(bind: Job.State.queued.rawValue), run_at = \(bind: now), attempts = 0, finished_at = NULL
            WHERE id = \(bind: id) AND state = \(bind: Job.State.failed.rawValue)
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    // MARK: The loop of `fieldhouse serve`

    /// Polls every `interval` seconds until `stop()`. A failing poll (the database restarting) is
    /// logged and tried again at the next.
    func start(_ app: Application, interval: TimeInterval) {
        let task = Task {
            while !Task.isCancelled {
                do {
                    try await runDue(app)
                } catch {
                    app.logger.error("Job runner: \(error)")
                }
                try? await Task.sleep(for: .seconds(interval))
            }
        }
        loop.withLockedValue { $0 = task }
    }

    /// Stops polling and waits for the job in hand to finish.
    func stop() async {
        guard let task = loop.withLockedValue({ $0 }) else { return }
        task.cancel()
        await task.value
    }
}

extension Application {
    private struct JobRunnerKey: StorageKey { typealias Value = JobRunner }

    /// Set once by `configure`, from every feature's `jobKinds`.
    var jobs: JobRunner {
        get {
            guard let runner = storage[JobRunnerKey.self] else { fatalError("configure sets app.jobs") }
            return runner
        }
        set { storage[JobRunnerKey.self] = newValue }
    }
}

/// The job loop stops before the database closes.
struct JobRunnerLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.jobs.stop()
    }
}
