import Fluent
import Vapor

/// Slows down password guessing: after 10 failures in 15 minutes for one account from one address,
/// or 30 from one address across accounts, sign-in from there answers 429 until the oldest of those
/// failures is 15 minutes old. Counted per account *and* address, so a stranger failing someone's
/// password elsewhere cannot lock them out.
struct LoginLimiter {
    struct Key {
        let name: String
        let limit: Int
    }

    static let maxFailures = 10
    static let maxFailuresPerAddress = 30
    static let window: TimeInterval = 15 * 60

    let db: any Database
    let now: Date

    static func keys(login: String, address: String?) -> [Key] {
        let address = address ?? "unknown"
        return [
            Key(name: "account:" + login.lowercased() + "@" + address, limit: maxFailures),
            Key(name: "address:" + address, limit: maxFailuresPerAddress),
        ]
    }

    /// When the caller may try again, or nil when they may try now.
    func retryAfter(keys: [Key]) async throws -> Date? {
        let since = now.addingTimeInterval(-Self.window)
        var latest: Date?
        for key in keys {
            let recent = try await LoginAttempt.query(on: db)
                .filter(\.$key == key.name)
                .filter(\.$attemptedAt > since)
                .sort(\.$attemptedAt, .descending)
                .limit(key.limit)
                .all()
            if recent.count >= key.limit, let oldest = recent.last?.attemptedAt {
                let until = oldest.addingTimeInterval(Self.window)
                latest = max(latest ?? until, until)
            }
        }
        return latest
    }

    func recordFailure(keys: [Key]) async throws {
        let cutoff = now.addingTimeInterval(-Self.window)
        try await db.inTransaction { db in
            for key in keys {
                try await LoginAttempt(key: key.name, at: now).create(on: db)
            }
            // Old failures no longer count; dropping them keeps the table small.
            try await LoginAttempt.query(on: db).filter(\.$attemptedAt < cutoff).delete()
        }
    }

    /// What was tried too often: signing in, or giving the password again while signed in.
    enum Attempts { case signIns, passwords }

    /// The message for someone who must wait until `until`.
    func waitMessage(until: Date, tooMany: Attempts = .signIns) -> (text: String, seconds: Int) {
        let minutes = max(1, Int((until.timeIntervalSince(now) / 60).rounded(.up)))
        let text =
            switch tooMany {
            case .signIns:
                tn(
                    "Too many failed sign-in attempts. Try again in {count} minute.",
                    "Too many failed sign-in attempts. Try again in {count} minutes.", minutes)
            case .passwords:
                tn("Too many wrong passwords. Try again in {count} minute.", "Too many wrong passwords. Try again in {count} minutes.", minutes)
            }
        return (text, minutes * 60)
    }

    /// A successful sign-in clears the account's count from that address, not the address's: one
    /// right password must not reset a guessing run against other accounts.
    func recordSuccess(login: String, address: String?) async throws {
        guard let pair = Self.keys(login: login, address: address).first else { return }
        try await LoginAttempt.query(on: db).filter(\.$key == pair.name).delete()
    }
}

/// What asking a signed-in person for their password again found.
enum PasswordRecheck {
    case right
    case wrong
    /// Too many wrong answers lately; the message says how long to wait.
    case locked(String)
}

extension Request {
    /// Asks for the signed-in person's password again (to change it or delete the account). Wrong
    /// answers count with failed sign-ins for the account from this address, so a borrowed session
    /// cannot be used to guess the password either.
    func recheckPassword(of user: User, _ password: String) async throws -> PasswordRecheck {
        let limiter = LoginLimiter(db: db, now: now)
        let keys = LoginLimiter.keys(login: user.username, address: clientAddress)
        if let until = try await limiter.retryAfter(keys: keys) {
            return .locked(limiter.waitMessage(until: until, tooMany: .passwords).text)
        }
        guard try await self.password.async.verify(password, created: user.passwordHash) else {
            try await limiter.recordFailure(keys: keys)
            return .wrong
        }
        return .right
    }
}
