import Fluent
import SQLKit
import Vapor

/// `/admin/reports`: reported messages waiting for the site's admins, wherever they were written
/// (a direct conversation has no other moderator), as the reports keep them: a message deleted
/// since, or whose author left, is still here. An admin hides a message or lets it stand.
struct ReportsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(MessagesPath.reports, use: list)
        routes.post(MessagesPath.hideReported) { try await settle(req: $0, hide: true) }
        routes.post(MessagesPath.dismissReport) { try await settle(req: $0, hide: false) }
    }

    struct Item: Encodable {
        var author: String
        var body: String
        var when: String
        var datetime: String
        var kind: String
        var gone: Bool
        var reports: Int
        var reasons: [String]
        var hideAction: String?
        var dismissAction: String
    }

    struct Page: Encodable {
        let layout: Layout
        let items: [Item]
    }

    func list(req: Request) async throws -> View {
        let admin = try AdminAccess.load(req).admin
        let open = try await MessageReport.query(on: req.db).filter(\.$resolvedAt == nil).sort(\.$createdAt).limit(500)
            .with(\.$message).with(\.$author).all()
        let format = Format(admin)
        var group: [UUID: Int] = [:]
        var items: [Item] = []
        for report in open {
            let reportID = try report.requireID()
            let key = report.$message.id ?? reportID
            let reason = report.reason.isEmpty ? [] : [report.reason]
            if let index = group[key] {
                items[index].reports += 1
                items[index].reasons += reason
                continue
            }
            group[key] = items.count
            let written = report.message?.createdAt ?? report.createdAt
            items.append(
                Item(
                    author: report.author.map { "\($0.displayName) (@\($0.username))" } ?? t("Someone whose account is gone"), body: report.body,
                    when: format.shortWhen(written), datetime: Format.machine(written),
                    kind: Conversation.Kind(rawValue: report.conversationKind)?.label ?? "", gone: report.message == nil, reports: 1, reasons: reason,
                    hideAction: report.message.map { $0.hiddenAt == nil } == true ? SiteURL.hideReported(reportID).path : nil,
                    dismissAction: SiteURL.dismissReport(reportID).path))
        }
        return try await req.view.render(
            "messages/reports", Page(layout: req.layout(title: t("Reported messages"), section: .settings, hasForms: true), items: items))
    }

    /// Settles every open report of the report's message (or the report alone, once the message is
    /// gone), hiding the message first when asked.
    func settle(req: Request, hide: Bool) async throws -> Response {
        _ = try AdminAccess.load(req)
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)), let report = try await MessageReport.find(id, on: req.db)
        else { throw Abort(.notFound) }
        if let messageID = report.$message.id, let message = try await Message.find(messageID, on: req.db) {
            if hide {
                try await MessageModeration.hide(message, now: req.now, app: req.application)
            } else {
                try await MessageModeration.settle(messageID, now: req.now, on: req.db)
            }
        } else {
            report.resolvedAt = req.now
            try await report.update(on: req.db)
        }
        req.flash(.success, hide ? t("Message hidden.") : t("The message stays; its reports are closed."))
        return req.redirect(to: SiteURL.messageReports)
    }
}
