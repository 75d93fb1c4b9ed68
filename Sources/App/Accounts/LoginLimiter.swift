import Fluent
import Vapor

/// Slows down password guessing: after 10 failures in 15 minutes for one account, or from one
/// address, sign-in answers 429 until the oldest of those failures is 15 minutes old.
struct LoginLimiter {
    static let maxFailures = 10
    static let window: TimeInterval = 15 * 60

    let db: any Database
    let now: Date

    static func keys(login: String, address: String?) -> [String] {
        var keys = ["account:" + login.lowercased()]
        if let address { keys.append("address:" + address) }
        return keys
    }

    /// When the caller may try again, or nil when they may try now.
    func retryAfter(keys: [String]) async throws -> Date? {
        let since = now.addingTimeInterval(-Self.window)
        var latest: Date?
        for key in keys {
            let recent = try await LoginAttempt.query(on: db)
                .filter(\.$key == key)
                .filter(\.$attemptedAt > since)
                .sort(\.$attemptedAt, .descending)
                .limit(Self.maxFailures)
                .all()
            if recent.count >= Self.maxFailures, let oldest = recent.last?.attemptedAt {
                let until = oldest.addingTimeInterval(Self.window)
                latest = max(latest ?? until, until)
            }
        }
        return latest
    }

    func recordFailure(keys: [String]) async throws {
        let cutoff = now.addingTimeInterval(-Self.window)
        try await db.transaction { db in
            for key in keys {
                try await LoginAttempt(key: key, at: now).create(on: db)
            }
            // Old failures no longer count; dropping them keeps the table small.
            try await LoginAttempt.query(on: db).filter(\.$attemptedAt < cutoff).delete()
        }
    }

    /// A successful sign-in clears the account's count, not the address's: one right password
    /// must not reset a guessing run against other accounts.
    func recordSuccess(login: String) async throws {
        try await LoginAttempt.query(on: db).filter(\.$key == "account:" + login.lowercased()).delete()
    }
}
