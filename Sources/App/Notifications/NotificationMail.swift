import Foundation
import Vapor

/// Turns an outbox row into an e-mail: the same words as plain text and as a simple HTML page
/// (`Views/mail/message.leaf`, escaped like every page), with a button to the page it is about and,
/// for news a person chose to hear, a link that stops that kind of e-mail without signing in.
enum NotificationMail {
    /// A subject line from a notification's text: its first line, at most 120 characters.
    static func subject(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        return line.count <= 120 ? line : String(line.prefix(119)) + "…"
    }

    static func unsubscribeToken(user: UUID, topic: NotificationTopic, secret: ServerSecret) -> String {
        secret.token(for: "unsubscribe", SiteURL.id(user), topic.rawValue)
    }

    struct Context: Encodable {
        let subject: String
        let greeting: String
        let paragraphs: [String]
        let link: String?
        let linkLabel: String?
        /// "You get this because …" and the addresses to change it.
        let reason: String
        let unsubscribe: String?
        let settings: String
        /// The recipient's language, for `<html lang>` and the template's own words.
        let language: String
    }

    /// The e-mail in the recipient's language (their setting, else English: a job has no browser
    /// to ask). Its subject and body were written in that language when it was queued.
    static func compose(_ message: OutboxMessage, to user: User, app: Application, now: Date) async throws -> MailMessage {
        try await user.reader.writeAsync {
            try await composeInLanguage(message, to: user, app: app, now: now)
        }
    }

    private static func composeInLanguage(_ message: OutboxMessage, to user: User, app: Application, now: Date) async throws -> MailMessage {
        let config = app.config
        let userID = try user.requireID()
        let topic = message.topic.flatMap(NotificationTopic.init(rawValue:))
        let unsubscribe = topic.map {
            config.absolute(.unsubscribe(user: userID, topic: $0, token: unsubscribeToken(user: userID, topic: $0, secret: app.serverSecret)))
        }
        let context = Context(
            subject: message.subject,
            greeting: t("Hi {name},", user.displayName),
            paragraphs: message.body.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty },
            link: message.link.map { config.absolute(SiteURL.stored($0)) },
            linkLabel: message.linkLabel,
            reason: topic.map {
                t("You get this e-mail because e-mails about “{topic}” are on for the Fieldhouse account {username}.", $0.label, user.username)
            }
                ?? t("This e-mail is about your Fieldhouse account {username} itself, so it cannot be turned off.", user.username),
            unsubscribe: unsubscribe,
            settings: config.absolute(.notificationSettings),
            language: Language.current.rawValue
        )
        var text = ([context.greeting] + context.paragraphs).joined(separator: "\n\n")
        if let link = context.link { text += "\n\n\(context.linkLabel ?? t("Open")): \(link)" }
        text += "\n\n-- \n\(context.reason)\n"
        if let unsubscribe { text += t("Stop these e-mails: {address}", unsubscribe) + "\n" }
        text += t("All your notification settings: {address}", context.settings) + "\n"
        let html = try await app.view.render("mail/message", context).get()
        return MailMessage(
            fromName: config.mailFromName, fromAddress: config.mailFromAddress ?? "", to: message.toAddress, subject: message.subject,
            text: text, html: String(buffer: html.data), messageID: "\(SiteURL.id(try message.requireID()))@\(config.mailHost)", date: now,
            unsubscribe: unsubscribe)
    }
}
