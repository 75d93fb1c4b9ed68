import FieldhouseKit
import Fluent
import Foundation
import Vapor

/// Sends an e-mail invitation to a team. The address may have no account, so the message is not an
/// outbox row (those belong to a person) but a job of its own: it writes the link again from the
/// invitation's id and the server's key, in the language the sender used, and hands it to the SMTP
/// server like `MailSendJob`. Sending twice is harmless; an invitation used or withdrawn meanwhile
/// sends nothing.
enum TeamEmailInviteJob {
    struct Payload: Codable, Sendable {
        let invite: UUID
        let language: String
    }

    static let name = "teams.email-invite"

    static func queue(_ invite: UUID, language: Language, on db: any Database) async throws {
        try await Job.enqueue(name, payload: Payload(invite: invite, language: language.rawValue), at: .distantPast, key: "team-invite:\(invite)", on: db)
    }

    static let kind = JobKind(name, transactional: false) { run in
        let payload = try run.payload(as: Payload.self)
        let app = run.app
        guard
            let invite = try await TeamEmailInvite.query(on: run.db).filter(\.$id == payload.invite).filter(\.$usedAt == nil)
                .with(\.$team).with(\.$createdBy).first()
        else { return }
        guard let smtp = app.config.smtp, app.config.sendsMail else {
            app.logger.info("E-mail is off (FIELDHOUSE_SMTP_URL is not set); a team invitation is not sent.")
            return
        }
        if let until = app.mailServerAway.withLockedValue({ $0 }), until > run.now {
            throw SMTPFailure(description: "The mail server did not answer a moment ago; trying again later.", permanent: false)
        }
        let reader = Reader(language: Language(rawValue: payload.language) ?? .en, clock: .twentyFourHour)
        let mail = try await reader.writeAsync { try await compose(invite, app: app, now: run.now) }
        do {
            try await SMTPClient.send(mail, via: smtp, helloName: app.config.mailHost)
            app.mailServerAway.withLockedValue { $0 = nil }
        } catch let failure as SMTPFailure where failure.permanent {
            throw JobGaveUp(description: failure.description)
        } catch {
            if (error as? SMTPFailure)?.serverAway == true { app.mailServerAway.withLockedValue { $0 = run.now.addingTimeInterval(60) } }
            throw error
        }
    }

    /// An invitation's address is someone else's: once its link has long stopped working (a month
    /// after it expired), the invitation and the address go.
    static let sweep = JobKind("teams.email-invite-sweep", every: 3600) { run in
        try await TeamEmailInvite.query(on: run.db).filter(\.$expiresAt < run.now.addingTimeInterval(-keptAfterExpiry)).delete()
        try await TeamEmailInviteSend.query(on: run.db).filter(\.$createdAt < run.now.addingTimeInterval(-86_400)).delete()
    }

    static let keptAfterExpiry: TimeInterval = 30 * 86_400

    private static func compose(_ invite: TeamEmailInvite, app: Application, now: Date) async throws -> MailMessage {
        let config = app.config
        let sender = invite.createdBy.displayName, team = invite.team.name
        let link = config.absolute(.emailInvite(token: TeamEmailInvite.token(try invite.requireID(), secret: app.serverSecret)))
        let context = NotificationMail.Context(
            subject: t("{name} invited you to join {team} on Fieldhouse", sender, team),
            greeting: t("Hello,"),
            paragraphs: [
                t("{name} invited you to join {team} on Fieldhouse, where teams plan their games and training.", sender, team),
                t("Open the link to create your account (or sign in, if you have one) and join the team. It works once, for 14 days."),
            ],
            link: link, linkLabel: t("Join {team}", team),
            reason: t(
                "You get this e-mail because {name} entered your address to invite you. If you do not want to join, ignore it: nothing more will be sent.",
                sender),
            unsubscribe: nil, settings: config.absolute(.notificationSettings), language: Language.current.rawValue)
        let text = ([context.greeting] + context.paragraphs).joined(separator: "\n\n") + "\n\n\(context.linkLabel ?? ""): \(link)\n\n-- \n\(context.reason)\n"
        let html = try await app.view.render("mail/message", context).get()
        return MailMessage(
            fromName: config.mailFromName, fromAddress: config.mailFromAddress ?? "", to: invite.email, subject: context.subject,
            text: text, html: String(buffer: html.data), messageID: "\(SiteURL.id(try invite.requireID()))@\(config.mailHost)", date: now,
            unsubscribe: nil)
    }
}
