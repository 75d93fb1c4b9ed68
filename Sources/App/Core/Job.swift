import Fluent
import Foundation
import SQLKit

/// One piece of work the job runner does once, at `runAt` or soon after: a reminder to send, a
/// sweep to make. A process takes a job by leasing it (`leaseOwner` until `leaseUntil`); a job whose
/// process died is taken again once its lease runs out.
final class Job: Model, @unchecked Sendable {
    static let schema = "jobs"

    enum State: String, Codable, Sendable {
        /// Waiting for `runAt`, or leased and running.
        case queued
        case done
        /// Failed `JobRunner.maxAttempts` times; an admin may retry it.
        case failed
    }

    @ID(key: .id) var id: UUID?
    @Field(key: "kind") var kind: String
    /// What the job works on, as JSON (often `{}`: a sweep needs nothing).
    @Field(key: "payload") var payload: String
    /// Makes enqueueing idempotent: a second job with the same key is not added. Scheduled kinds use
    /// their kind and occurrence, so two processes never create the same occurrence twice.
    @OptionalField(key: "key") var key: String?
    @Field(key: "run_at") var runAt: Date
    @Enum(key: "state") var state: State
    /// Times the job was taken, including a take whose process died.
    @Field(key: "attempts") var attempts: Int
    @OptionalField(key: "last_error") var lastError: String?
    @OptionalField(key: "lease_owner") var leaseOwner: String?
    @OptionalField(key: "lease_until") var leaseUntil: Date?
    @OptionalField(key: "finished_at") var finishedAt: Date?

    init() {}

    /// Adds a job of `kind` due at `at`, for code without the runner at hand (`JobRunner.enqueue`
    /// also checks the kind exists). With a `key`, a job with the same key already in the table
    /// (queued, done or failed) means this one is not added: enqueueing is safe to repeat.
    static func enqueue(_ kind: String, payload: some Encodable, at: Date, key: String?, on db: any Database) async throws {
        try await enqueue(kind, payload: payload, at: at, key: key, on: db.sql)
    }

    /// Many jobs of one kind in one statement (a message's pushes to thirty browsers): one round
    /// trip instead of one each.
    static func enqueue<Payload: Encodable>(_ kind: String, _ jobs: [(payload: Payload, key: String)], at: Date, on db: any Database) async throws {
        guard !jobs.isEmpty else { return }
        let encoder = JSONEncoder()
        var insert = db.sql.insert(into: schema).columns("id", "kind", "payload", "key", "run_at", "state", "attempts")
        for job in jobs {
            let json = String(decoding: try encoder.encode(job.payload), as: UTF8.self)
            insert = insert.values(
                SQLBind(UUID()), SQLBind(kind), SQLBind(json), SQLBind(job.key), SQLBind(at), SQLBind(State.queued.rawValue), SQLLiteral.numeric("0"))
        }
        try await insert.ignoringConflicts(with: ["key"]).run()
    }

    /// The same on plain SQL (sample writing holds no Fluent database).
    static func enqueue(_ kind: String, payload: some Encodable, at: Date, key: String?, on sql: any SQLDatabase) async throws {
        let json = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
        try await sql.raw(
            """
            INSERT INTO jobs (id, kind, payload, key, run_at, state, attempts)
            VALUES (\(bind: UUID()), \(bind: kind), \(bind: json), \(bind: key), \(bind: at), \(bind: State.queued.rawValue), 0)
            ON CONFLICT (key) DO NOTHING
            """
        ).run()
    }
}
