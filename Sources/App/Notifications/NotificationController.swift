import Fluent
import Vapor

/// `/notifications`: what happened that concerns me; the header shows how many are unread.
struct NotificationController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(NotificationPath.notifications, use: index)
        routes.post(NotificationPath.markRead, use: markRead)
    }

    struct Item: Encodable {
        let text: String
        let link: String
        let when: String
        let unread: Bool
    }

    struct Page: Encodable {
        let layout: Layout
        let items: [Item]
        let pager: Pager
        let hasUnread: Bool
    }

    func index(req: Request) async throws -> View {
        let user = try req.requireUser()
        var pager = Pager(req: req, perPage: 30)
        let rows = try await Notification.query(on: req.db).filter(\.$recipient.$id == user.requireID())
            .sort(\.$createdAt, .descending).offset(pager.offset).limit(pager.fetchLimit).all()
        let shown = pager.finish(rows, at: .notifications, query: [])
        let format = Format(user)
        let items = shown.map { note in
            Item(text: note.text, link: note.link, when: format.when(note.createdAt ?? req.now), unread: !note.read)
        }
        return try await req.view.render(
            "notifications/notifications",
            Page(
                layout: req.layout(title: t("Notifications")), items: items, pager: pager, hasUnread: items.contains { $0.unread }
            ))
    }

    func markRead(req: Request) async throws -> Response {
        let user = try req.requireUser()
        try await Notification.query(on: req.db).filter(\.$recipient.$id == user.requireID()).filter(\.$read == false)
            .set(\.$read, to: true).update()
        try await req.personChanged(user.requireID())
        return req.redirect(to: .notifications)
    }
}
