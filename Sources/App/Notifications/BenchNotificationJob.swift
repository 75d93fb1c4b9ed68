import Foundation

/// For `make bench` (`fieldhouse bench-jobs`): a job as heavy as a typical one, a notification
/// written for one person.
enum BenchNotificationJob {
    struct Payload: Codable {
        let user: UUID
        let n: Int
        /// Extra time the job takes, so a test can stop a process in the middle of one.
        var slowMilliseconds: Int? = nil
    }

    static let kind = JobKind("notifications.bench") { run in
        let payload = try run.payload(as: Payload.self)
        if let slow = payload.slowMilliseconds, slow > 0 { try await Task.sleep(for: .milliseconds(slow)) }
        try await Notification.send(to: [payload.user], from: nil, kind: .goalReached, text: t("Bench job {number}", payload.n), link: "/", on: run.db)
    }
}
