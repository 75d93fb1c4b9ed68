import Fluent
import SQLKit
import Vapor

/// `/admin/reports`: reported messages waiting for the site's admins, wherever they were written
/// (a direct conversation has no other moderator). An admin hides a message or lets it stand.
struct ReportsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(MessagesPath.reports, use: list)
        routes.post(MessagesPath.hideReported) { try await settle(req: $0, hide: true) }
        routes.post(MessagesPath.dismissReport) { try await settle(req: $0, hide: false) }
    }

    struct Item: Encodable {
        let author: String
        let body: String
        let when: String
        let datetime: String
        let kind: String
        let reports: Int
        let reasons: [String]
        let hideAction: String
        let dismissAction: String
    }

    struct Page: Encodable {
        let layout: Layout
        let items: [Item]
    }

    func list(req: Request) async throws -> View {
        let admin = try AdminAccess.load(req).admin
        let open = try await MessageReport.query(on: req.db).filter(\.$resolvedAt == nil).sort(\.$createdAt).limit(500)
            .with(\.$message) { $0.with(\.$author).with(\.$conversation) }.all()
        let format = Format(admin)
        var seen: [UUID: Int] = [:]
        var items: [Item] = []
        for report in open {
            let message = report.message
            let id = try message.requireID()
            let reason = report.reason.isEmpty ? nil : report.reason
            if let index = seen[id] {
                let old = items[index]
                items[index] = Item(
                    author: old.author, body: old.body, when: old.when, datetime: old.datetime, kind: old.kind, reports: old.reports + 1,
                    reasons: old.reasons + [reason].compactMap { $0 }, hideAction: old.hideAction, dismissAction: old.dismissAction)
                continue
            }
            seen[id] = items.count
            items.append(
                Item(
                    author: "\(message.author.displayName) (@\(message.author.username))", body: message.body, when: format.shortWhen(message.createdAt),
                    datetime: Format.machine(message.createdAt), kind: message.conversation.kind.label, reports: 1,
                    reasons: [reason].compactMap { $0 }, hideAction: SiteURL.hideReported(id).path, dismissAction: SiteURL.dismissReport(id).path))
        }
        return try await req.view.render(
            "messages/reports", Page(layout: req.layout(title: t("Reported messages"), section: .settings, hasForms: true), items: items))
    }

    func settle(req: Request, hide: Bool) async throws -> Response {
        _ = try AdminAccess.load(req)
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)), let message = try await Message.find(id, on: req.db)
        else { throw Abort(.notFound) }
        if hide {
            try await MessageModeration.hide(message, now: req.now, app: req.application)
            req.flash(.success, t("Message hidden."))
        } else {
            try await MessageModeration.settle(id, now: req.now, on: req.db)
            req.flash(.success, t("The message stays; its reports are closed."))
        }
        return req.redirect(to: SiteURL.messageReports)
    }
}
