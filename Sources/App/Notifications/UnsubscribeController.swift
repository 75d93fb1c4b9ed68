import Fluent
import Vapor

/// The "stop these e-mails" link at the foot of a notification e-mail. Opening it asks to confirm
/// (mail scanners open links on their own); the button, or a mail program's one-click POST
/// (RFC 8058), turns that topic's e-mails off. No sign-in: the address itself is the proof.
struct UnsubscribeController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(NotificationPath.unsubscribe, use: page).holdsSecret()
        routes.post(NotificationPath.unsubscribe, use: unsubscribe).holdsSecret().userInfo[CSRF.signedAddress] = true
    }

    struct Page: Encodable {
        let layout: Layout
        let topic: String
        let username: String
        let action: String
        let done: Bool
        let settings: String
    }

    private func target(_ req: Request) async throws -> (user: User, topic: NotificationTopic, token: String) {
        guard let id = req.parameters.get("user", as: UUID.self), let topic = req.parameters.get("topic").flatMap(NotificationTopic.init(rawValue:)),
            let token = req.parameters.get("token"),
            RandomToken.constantTimeEquals(token, NotificationMail.unsubscribeToken(user: id, topic: topic, secret: req.application.serverSecret)),
            let user = try await User.find(id, on: req.db)
        else {
            throw Abort(.notFound, reason: t("This link is not valid. Sign in and change what you get by e-mail in your notification settings."))
        }
        return (user, topic, token)
    }

    func page(req: Request) async throws -> View {
        let (user, topic, token) = try await target(req)
        return try await render(req, user: user, topic: topic, token: token, done: false)
    }

    func unsubscribe(req: Request) async throws -> View {
        let (user, topic, token) = try await target(req)
        let userID = try user.requireID()
        try await req.db.inTransaction { db in
            let row =
                try await NotificationSetting.query(on: db).filter(\.$user.$id == userID).filter(\.$topic == topic).first()
                ?? NotificationSetting(user: userID, topic: topic, inApp: true, email: false)
            row.email = false
            try await row.save(on: db)
        }
        return try await render(req, user: user, topic: topic, token: token, done: true)
    }

    private func render(_ req: Request, user: User, topic: NotificationTopic, token: String, done: Bool) async throws -> View {
        try await req.view.render(
            "notifications/unsubscribe",
            Page(
                layout: req.layout(title: done ? t("E-mails stopped") : t("Stop e-mails?")), topic: topic.label, username: user.username,
                action: SiteURL.unsubscribe(user: user.requireID(), topic: topic, token: token).path, done: done,
                settings: SiteURL.notificationSettings.path))
    }
}
