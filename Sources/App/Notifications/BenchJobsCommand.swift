import Fluent
import Foundation
import Vapor

/// `fieldhouse bench-jobs --count 10000`: queues that many jobs due now, each writing a
/// notification, and drains them from this process while any running server takes its share.
/// Prints how long it took: what `make bench` reports for the job runner.
struct BenchJobsCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "count", help: "How many jobs to queue (default 10000)")
        var count: Int?

        @Option(name: "to", help: "Whose notifications they write (default maya)")
        var to: String?

        @Option(name: "slow-ms", help: "How long each job takes on top of its work, in milliseconds (default 0)")
        var slowMilliseconds: Int?

        @Flag(name: "queue-only", help: "Only queue the jobs and leave them to the running servers")
        var queueOnly: Bool
    }

    var help: String { "Measures the job runner: queues due jobs and times how fast they are done." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        let count = max(1, min(signature.count ?? 10_000, 1_000_000))
        guard let user = try await User.query(on: app.db).filter(\.$username == (signature.to ?? "maya")).first() else {
            throw Abort(.notFound, reason: "No account \(signature.to ?? "maya"); run `fieldhouse seed` first.")
        }
        let userID = try user.requireID()
        let slow = max(0, min(signature.slowMilliseconds ?? 0, 10_000))
        let queued = ContinuousClock.now
        try await app.db.inTransaction { db in
            for n in 0..<count {
                try await app.jobs.enqueue(
                    BenchNotificationJob.kind.name, payload: BenchNotificationJob.Payload(user: userID, n: n, slowMilliseconds: slow), at: app.clock.now, on: db
                )
            }
        }
        if signature.queueOnly {
            context.console.print("\(count) jobs queued for the running servers.")
            return
        }
        let started = ContinuousClock.now
        var ranHere = 0
        while true {
            ranHere += try await app.jobs.runDue(app, limit: 500)
            let left = try await Job.query(on: app.db).filter(\.$kind == BenchNotificationJob.kind.name).filter(\.$state == .queued).count()
            if left == 0 { break }
            if ranHere == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        func seconds(since start: ContinuousClock.Instant) -> Double {
            let elapsed = (ContinuousClock.now - start).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
        let draining = seconds(since: started), queueing = seconds(since: queued) - draining
        let failed = try await Job.query(on: app.db).filter(\.$kind == BenchNotificationJob.kind.name).filter(\.$state == .failed).count()
        try await Job.query(on: app.db).filter(\.$kind == BenchNotificationJob.kind.name).delete()
        context.console.print(
            "\(count) jobs queued in \(Format.machineNumber(queueing, decimals: 2)) s, done in \(Format.machineNumber(draining, decimals: 2)) s: "
                + "\(Format.machineNumber(Double(count) / draining, decimals: 0)) jobs/s (\(ranHere) by this process, the rest by the server; \(failed) failed)"
        )
    }
}
