import Fluent
import Foundation

/// Hourly: sessions past their expiry, failed sign-ins that no longer count, and exports past
/// their seven days go, whether or not anyone signs in or asks for an export.
enum AccountCleanupJob {
    static let kind = JobKind("accounts.cleanup", every: 3600) { run in
        try await UserSession.query(on: run.db).filter(\.$expiresAt < run.now).delete()
        try await LoginAttempt.query(on: run.db).filter(\.$attemptedAt < run.now.addingTimeInterval(-LoginLimiter.window)).delete()
        AccountExport.removeExpired(config: run.app.config, unfinished: false, now: run.now)
    }
}
