import Fluent
import Foundation
import SQLKit
import Vapor

/// `fieldhouse jobs`: what the job runner has due, running and failed; `--retry ID` puts a failed
/// job back in the queue; `--run` runs what is due now, once, from this process.
struct JobsCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "retry", help: "Queue this failed job again (its id, as listed)")
        var retry: String?

        @Flag(name: "run", help: "Run every due job now from this process, then list")
        var run: Bool
    }

    var help: String { "Lists due, running and failed background jobs; retries a failed one." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        if let raw = signature.retry {
            guard let id = UUID(uuidString: raw), try await app.jobs.retry(id, now: app.clock.now, on: app.db) else {
                throw JobsCommandError("No failed job has the id \(raw).")
            }
            context.console.print("Queued \(raw.lowercased()) again.")
        }
        if signature.run {
            let ran = try await app.jobs.runDue(app)
            context.console.print("Ran \(ran) job\(ran == 1 ? "" : "s").")
        }
        let board = try await JobBoard.load(now: app.clock.now, on: app.db)
        for section in board.sections {
            context.console.print("\(section.title) (\(section.count))")
            for row in section.rows {
                context.console.print(
                    "  \(row.id)  \(row.kind)  \(row.when)  attempts \(row.attempts)\(row.detail.isEmpty ? "" : "  \(row.detail)")")
            }
        }
    }

    struct JobsCommandError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
