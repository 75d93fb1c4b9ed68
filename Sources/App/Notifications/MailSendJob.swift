import Fluent
import Foundation
import Vapor

/// `mail.send`: hands one outbox message to the SMTP server, then deletes it. A server that is down,
/// refuses for now or drops the connection is tried again later (the runner backs off); a server
/// that refuses the address for good fails the job at once, for an admin to see.
///
/// The row is deleted in the job's transaction after the server accepted the message, so a retry
/// after success finds nothing to send. (Only a database failure in the instant between the
/// server's acceptance and the commit could send a message twice.)
enum MailSendJob {
    static let kind = JobKind(OutboxMessage.sendKind) { run in
        let payload = try run.payload(as: OutboxMessage.Payload.self)
        // Gone: already sent, or the account was deleted with what it had waiting.
        guard let message = try await OutboxMessage.query(on: run.db).filter(\.$id == payload.message).with(\.$user).first() else { return }
        guard let smtp = run.app.config.smtp, run.app.config.sendsMail else {
            // E-mail was switched off after the address was confirmed: the choice is the admin's.
            run.app.logger.info("E-mail is off (FIELDHOUSE_SMTP_URL is not set); a message to \(message.toAddress) is dropped.")
            try await message.delete(on: run.db)
            return
        }
        let mail = try await NotificationMail.compose(message, to: message.user, app: run.app, now: run.now)
        do {
            try await SMTPClient.send(mail, via: smtp, helloName: run.app.config.mailHost)
        } catch let failure as SMTPFailure where failure.permanent {
            throw JobGaveUp(description: failure.description)
        }
        try await message.delete(on: run.db)
    }
}
