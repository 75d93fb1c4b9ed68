import Fluent
import Vapor

/// `/settings/notifications`: one switch per topic for what appears under the bell.
struct NotificationSettingsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("settings", "notifications", use: page)
        routes.post("settings", "notifications", use: save)
    }

    struct Row: Encodable {
        let value: String
        let label: String
        let hint: String
        let inApp: Bool
    }

    struct Page: Encodable {
        let layout: Layout
        let rows: [Row]
    }

    func page(req: Request) async throws -> View {
        let user = try req.requireUser()
        let settings = try await NotificationSetting.query(on: req.db).filter(\.$user.$id == user.requireID()).all()
        let off = Set(settings.filter { !$0.inApp }.map(\.topic))
        return try await req.view.render(
            "notifications/settings",
            Page(
                layout: req.layout(title: "Notifications", section: .settings),
                rows: NotificationTopic.allCases.map { Row(value: $0.rawValue, label: $0.label, hint: $0.hint, inApp: !off.contains($0)) }))
    }

    struct Form: Content {
        /// The topics left on; a topic missing is off (an unchecked box sends nothing).
        var in_app: [String]?
    }

    func save(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let on = Set((try req.content.decode(Form.self).in_app ?? []).compactMap(NotificationTopic.init(rawValue:)))
        try await req.db.transaction { db in
            let existing = try await NotificationSetting.query(on: db).filter(\.$user.$id == userID).all()
            for topic in NotificationTopic.allCases {
                let row = existing.first { $0.topic == topic } ?? NotificationSetting(user: userID, topic: topic, inApp: true, email: true)
                row.inApp = on.contains(topic)
                // Everything on is the default: no row needed.
                if row.inApp && row.email {
                    if row.id != nil { try await row.delete(on: db) }
                } else {
                    try await row.save(on: db)
                }
            }
        }
        req.flash(
            .success,
            on.count == NotificationTopic.allCases.count ? "You'll hear about everything." : "Saved. Topics you turned off no longer appear under the bell.")
        return req.redirect(to: .notificationSettings)
    }
}
