import Crypto
import Fluent
import Vapor

/// `/settings/notifications`: one switch per topic for what appears under the bell.
struct NotificationSettingsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(NotificationPath.notificationSettings, use: page)
        routes.post(NotificationPath.notificationSettings, use: save)
    }

    struct Row: Encodable {
        let value: String
        let label: String
        let hint: String
        let bell: Bool
        let inApp: Bool
        let email: Bool
    }

    struct Page: Encodable {
        let layout: Layout
        let rows: [Row]
        /// E-mail choices are shown only when the server sends mail.
        let sendsMail: Bool
        let address: String
        let confirmed: Bool
        let resend: String
        let here: String
        let push: PushSection
    }

    /// "On this browser": what the page's script needs to subscribe this browser, and which of the
    /// person's browsers chose which topics. A browser is named by the SHA-256 of its endpoint (the
    /// script works it out from its own subscription): the endpoint itself stays off the page.
    struct PushSection: Encodable {
        let key: String
        let subscribe: String
        let stop: String
        let count: Int
        let browsers: String
    }

    static func pushSection(user: UUID, app: Application, on db: any Database) async throws -> PushSection {
        let subscriptions = try await PushSubscription.query(on: db).filter(\.$user.$id == user).all()
        var browsers: [String: [String]] = [:]
        for subscription in subscriptions {
            browsers[Format.hex(SHA256.hash(data: Data(subscription.endpoint.utf8)))] = subscription.chosen.map(\.rawValue).sorted()
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return PushSection(
            key: app.vapidKey.publicKeyBase64URL, subscribe: SiteURL.pushSubscribe.path, stop: SiteURL.pushStop.path, count: subscriptions.count,
            browsers: String(decoding: try encoder.encode(browsers), as: UTF8.self))
    }

    func page(req: Request) async throws -> View {
        let user = try req.requireUser()
        let settings = Dictionary(
            try await NotificationSetting.query(on: req.db).filter(\.$user.$id == user.requireID()).all().map { ($0.topic, $0) },
            uniquingKeysWith: { first, _ in first })
        return try await req.view.render(
            "notifications/settings",
            Page(
                layout: req.layout(title: t("Notifications"), section: .settings),
                rows: NotificationTopic.allCases.map {
                    Row(
                        value: $0.rawValue, label: $0.label, hint: $0.hint, bell: $0.hasBell, inApp: settings[$0]?.inApp ?? true,
                        email: settings[$0]?.email ?? $0.emailByDefault)
                },
                sendsMail: req.application.config.sendsMail, address: user.shownEmail, confirmed: user.emailConfirmedAt != nil,
                resend: SiteURL.resendConfirmation.path, here: SiteURL.notificationSettings.path,
                push: try await Self.pushSection(user: user.requireID(), app: req.application, on: req.db)))
    }

    struct Form: Content {
        /// The topics left on; a topic missing is off (an unchecked box sends nothing).
        var in_app: [String]?
        var email: [String]?
        /// Present when the page showed the e-mail boxes: without it, e-mail choices stay as they were.
        var email_shown: String?
        /// The topics for this browser, sent with its endpoint by the page's script when this
        /// browser gets notifications; without them the browsers' choices stay as they were.
        var push: [String]?
        var push_endpoint: String?
    }

    func save(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let form = try req.content.decode(Form.self)
        let inApp = Set((form.in_app ?? []).compactMap(NotificationTopic.init(rawValue:)))
        let email = Set((form.email ?? []).compactMap(NotificationTopic.init(rawValue:)))
        try await req.db.inTransaction { db in
            let existing = try await NotificationSetting.query(on: db).filter(\.$user.$id == userID).all()
            for topic in NotificationTopic.allCases {
                let row =
                    existing.first { $0.topic == topic } ?? NotificationSetting(user: userID, topic: topic, inApp: true, email: topic.emailByDefault)
                // A topic without a bell has no box for it: it stays on.
                row.inApp = !topic.hasBell || inApp.contains(topic)
                if form.email_shown != nil { row.email = email.contains(topic) }
                // The defaults need no row.
                if row.inApp && row.email == topic.emailByDefault {
                    if row.id != nil { try await row.delete(on: db) }
                } else {
                    try await row.save(on: db)
                }
            }
            if let endpoint = form.push_endpoint, !endpoint.isEmpty, endpoint.utf8.count <= PushSubscription.maxEndpoint {
                let topics = Set((form.push ?? []).compactMap(NotificationTopic.init(rawValue:)))
                try await PushSubscription.query(on: db).filter(\.$user.$id == userID).filter(\.$endpoint == endpoint)
                    .set(\.$topics, to: PushSubscription.store(topics)).update()
            }
        }
        req.flash(
            .success,
            NotificationTopic.allCases.allSatisfy { !$0.hasBell || inApp.contains($0) }
                ? t("Saved. You'll see everything under the bell.") : t("Saved. Topics you turned off no longer appear under the bell."))
        return req.redirect(to: .notificationSettings)
    }
}
