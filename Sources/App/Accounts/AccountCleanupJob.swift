import Fluent
import Foundation

/// Hourly: sessions past their expiry, failed sign-ins that no longer count, password-reset links
/// past their hour, e-mails that could not be sent in a week, and exports past their seven days go,
/// whether or not anyone signs in or asks for an export.
enum AccountCleanupJob {
    static let kind = JobKind("accounts.cleanup", every: 3600) { run in
        try await UserSession.query(on: run.db).filter(\.$expiresAt < run.now).delete()
        try await LoginAttempt.query(on: run.db).filter(\.$attemptedAt < run.now.addingTimeInterval(-LoginLimiter.window)).delete()
        try await PasswordReset.query(on: run.db).filter(\.$expiresAt < run.now).delete()
        // Their jobs failed long ago (or e-mail was switched off); the words are not kept.
        try await OutboxMessage.query(on: run.db).filter(\.$createdAt < run.now.addingTimeInterval(-7 * 86_400)).delete()
        AccountExport.removeExpired(config: run.app.config, now: run.now)
    }
}
