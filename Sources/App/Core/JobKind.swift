import Fluent
import Foundation
import Vapor

/// A kind of background work a feature does: what to run, and for scheduled kinds, how often. The
/// features list theirs in `Feature.jobKinds`; the runner finds a job's kind by `name`.
struct JobKind: Sendable {
    /// "<feature>.<what>", e.g. "games.reminders": stored in each job, so never renamed lightly.
    let name: String
    /// Runs one job inside the transaction that marks it done: what it writes to the database
    /// happens exactly once, even when a process dies and another takes the job again.
    let run: @Sendable (JobRun) async throws -> Void
    /// For kinds that run on their own: one occurrence each `every` seconds, aligned to the epoch
    /// (every 60 s runs on the minute). nil for kinds only enqueued by something that happened.
    var every: TimeInterval?
    /// Whether the job runs inside the transaction that marks it done. A job whose effect cannot
    /// be rolled back (an e-mail handed to a server) runs outside it and makes itself safe to run
    /// twice (see `MailSendJob`).
    var transactional = true

    init(_ name: String, every: TimeInterval? = nil, transactional: Bool = true, run: @escaping @Sendable (JobRun) async throws -> Void) {
        self.transactional = transactional
        precondition(every.map { $0 >= 1 && $0.rounded() == $0 } ?? true, "\(name): a schedule is a whole number of seconds")
        self.name = name
        self.every = every
        self.run = run
    }
}

/// What a running job has to work with.
struct JobRun: Sendable {
    let id: UUID
    let kind: String
    let payload: String
    /// When the job was due. A scheduled sweep catches up from here, whatever the delay.
    let due: Date
    /// The runner's time when the job started.
    let now: Date
    /// The transaction the job's writes go through (the database itself for a kind that is not
    /// `transactional`).
    let db: any Database
    let app: Application

    func payload<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(payload.utf8))
    }
}

/// The payload of a job that needs none: `{}`.
struct NoPayload: Codable, Sendable {}

/// Thrown by a job that should not be tried again (what it works on is gone): it is marked failed
/// at once instead of backing off.
struct JobGaveUp: Error, CustomStringConvertible {
    let description: String
}
