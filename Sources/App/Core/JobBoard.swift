import Fluent
import Foundation

/// The jobs an operator looks at: running, due (late first), failed; the same for the command and
/// the admin page.
struct JobBoard: Encodable {
    struct Row: Encodable {
        let id: String
        let kind: String
        let when: String
        let attempts: Int
        let detail: String
        let canRetry: Bool
    }

    struct Section: Encodable {
        /// "Running", "Due" or "Failed", in English: compared by code and printed by the command.
        let title: String
        /// How many there are; `rows` holds at most 100.
        let count: Int
        let rows: [Row]
    }

    let sections: [Section]

    static func load(now: Date, on db: any Database) async throws -> JobBoard {
        func iso(_ date: Date?) -> String { date.map(Format.machine) ?? "" }
        let running = Job.query(on: db).filter(\.$state == .queued).filter(\.$leaseUntil >= now)
        let due = Job.query(on: db).filter(\.$state == .queued).filter(\.$runAt <= now).group(.or) {
            $0.filter(\.$leaseUntil == nil).filter(\.$leaseUntil < now)
        }
        let failed = Job.query(on: db).filter(\.$state == .failed)
        var sections: [Section] = []
        for (title, query, sort) in [("Running", running, \Job.$runAt), ("Due", due, \Job.$runAt), ("Failed", failed, \Job.$runAt)] {
            let count = try await query.copy().count()
            let jobs = try await query.sort(sort, title == "Failed" ? .descending : .ascending).limit(100).all()
            let rows = jobs.map { job in
                Row(
                    id: job.id?.uuidString.lowercased() ?? "", kind: job.kind,
                    when: title == "Running" ? t("until {time} on {owner}", iso(job.leaseUntil), job.leaseOwner ?? "?") : t("due {time}", iso(job.runAt)),
                    attempts: job.attempts,
                    detail: job.lastError ?? "",
                    canRetry: job.state == .failed)
            }
            sections.append(Section(title: title, count: count, rows: rows))
        }
        return JobBoard(sections: sections)
    }
}
