import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// `mail.send`: hands one outbox message to the SMTP server.
///
/// Unlike other jobs it does not send inside its transaction: a message cannot be taken back, so it
/// is claimed first by deleting its row in a statement of its own, then sent. Whoever deletes the
/// row sends it; a second run (a retry after a lost lease, a runner that met a busy database) finds
/// nothing. A transient failure (no connection, a busy server, a dropped connection) puts the row
/// back and throws, so the runner tries again later; a refusal of the address or the message for
/// good leaves it deleted and fails the job for an admin to see. The cost is the other way round:
/// a process that dies while talking to the server loses that one message instead of sending it twice.
enum MailSendJob {
    static let kind = JobKind(OutboxMessage.sendKind, transactional: false) { run in
        let payload = try run.payload(as: OutboxMessage.Payload.self)
        let app = run.app
        // The row is read before it is claimed, so the message can be put back as it was.
        guard let message = try await OutboxMessage.query(on: run.db).filter(\.$id == payload.message).with(\.$user).first() else { return }
        guard let smtp = app.config.smtp, app.config.sendsMail else {
            // E-mail was switched off after the address was confirmed: the choice is the admin's.
            app.logger.info("E-mail is off (FIELDHOUSE_SMTP_URL is not set); a message to \(message.toAddress) is dropped.")
            try await message.delete(on: run.db)
            return
        }
        if let until = app.mailServerAway.withLockedValue({ $0 }), until > run.now {
            throw SMTPFailure(description: "The mail server did not answer a moment ago; trying again later.", permanent: false)
        }
        let mail = try await NotificationMail.compose(message, to: message.user, app: app, now: run.now)
        let claimed = try await run.db.sql.delete(from: OutboxMessage.schema).where("id", .equal, payload.message)
            .returning("id").all()
        guard !claimed.isEmpty else { return }
        do {
            try await SMTPClient.send(mail, via: smtp, helloName: app.config.mailHost)
            app.mailServerAway.withLockedValue { $0 = nil }
        } catch let failure as SMTPFailure where failure.permanent {
            throw JobGaveUp(description: failure.description)
        } catch {
            // Not sent: back in the outbox for the next attempt. Other messages wait a minute
            // rather than each waiting for the same silent server.
            try await OutboxMessage(copying: message).create(on: run.db)
            if (error as? SMTPFailure)?.serverAway == true { app.mailServerAway.withLockedValue { $0 = run.now.addingTimeInterval(60) } }
            throw error
        }
    }
}

extension Application {
    private struct MailServerAwayKey: StorageKey { typealias Value = NIOLockedValueBox<Date?> }

    /// Until when this process believes the mail server unreachable (it refused or timed out).
    var mailServerAway: NIOLockedValueBox<Date?> {
        if let box = storage[MailServerAwayKey.self] { return box }
        let box = NIOLockedValueBox<Date?>(nil)
        storage[MailServerAwayKey.self] = box
        return box
    }
}
