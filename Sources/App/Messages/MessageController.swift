import Fluent
import Vapor

/// One message's actions: its author edits or deletes it for a while after writing it; the
/// conversation's moderators delete or hide anyone's; anyone else reports it.
struct MessageController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(MessagesPath.editMessage, use: editPage)
        routes.post(MessagesPath.editMessage, use: edit)
        routes.post(MessagesPath.deleteMessage, use: delete)
        routes.post(MessagesPath.reportMessage, use: report)
        routes.post(MessagesPath.hideMessage, use: hide)
        routes.post(MessagesPath.blockAuthor, use: blockAuthor)
    }

    /// The conversation and one of its messages, for a viewer with a seat in it.
    private func load(_ req: Request) async throws -> (ConversationAccess, Message) {
        let access = try await ConversationAccess.load(req)
        guard let id = req.parameters.get("message").flatMap(UUID.init(uuidString:)),
            let message = try await Message.query(on: req.db).filter(\.$id == id).filter(\.$conversation.$id == access.id).first()
        else { throw Abort(.notFound) }
        return (access, message)
    }

    /// The author, within the edit window, and not once it is hidden, nor once it is reported: what
    /// the moderators are asked to judge stays as it was.
    private func requireEditable(_ message: Message, by access: ConversationAccess, now: Date, on db: any Database) async throws {
        guard message.$author.id == access.viewer.id else { throw Abort(.forbidden, reason: t("Only its author can change a message.")) }
        guard message.hiddenAt == nil, now.timeIntervalSince(message.createdAt) < Message.editWindow else {
            throw Abort(.forbidden, reason: t("A message can be changed only in the first 15 minutes after it is sent."))
        }
        guard try await MessageReport.query(on: db).filter(\.$message.$id == message.requireID()).filter(\.$resolvedAt == nil).first() == nil else {
            throw Abort(.forbidden, reason: t("A reported message can no longer be changed."))
        }
    }

    struct EditPage: Encodable {
        let layout: Layout
        let title: String
        let backURL: String
        let action: String
        let body: String
        let error: String?
        let maxBody: Int
    }

    func editPage(req: Request) async throws -> Response {
        let (access, message) = try await load(req)
        try await requireEditable(message, by: access, now: req.now, on: req.db)
        return try await renderEdit(req, access, message, body: message.body, error: nil)
    }

    private func renderEdit(_ req: Request, _ access: ConversationAccess, _ message: Message, body: String, error: String?, status: HTTPStatus = .ok)
        async throws -> Response
    {
        let id = try message.requireID()
        return try await req.view.render(
            "messages/edit",
            EditPage(
                layout: req.layout(title: t("Edit your message"), section: .messages, hasForms: true), title: access.title,
                backURL: SiteURL.conversation(access.id).fragment("m-" + SiteURL.id(id)), action: SiteURL.editMessage(access.id, id).path, body: body,
                error: error, maxBody: Message.maxBody)
        ).encodeResponse(status: status, for: req)
    }

    struct EditForm: Content { var body: String? }

    func edit(req: Request) async throws -> Response {
        let (access, message) = try await load(req)
        try await requireEditable(message, by: access, now: req.now, on: req.db)
        let body = (try req.content.decode(EditForm.self).body ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try MessagePosting.check(body)
        } catch let refusal as MessagePosting.Refusal {
            return try await renderEdit(req, access, message, body: body, error: refusal.reason, status: refusal.status)
        }
        if body != message.body {
            message.body = body
            message.editedAt = req.now
            try await message.update(on: req.db)
            try await req.application.liveBus.publish(MessagePosting.topic(access.id), on: req.db)
        }
        req.flash(.success, t("Message changed."))
        return req.redirect(to: SiteURL.conversation(access.id).fragment("m-" + SiteURL.id(try message.requireID())))
    }

    func delete(req: Request) async throws -> Response {
        let (access, message) = try await load(req)
        if !access.moderates { try await requireEditable(message, by: access, now: req.now, on: req.db) }
        try await message.delete(on: req.db)
        try await req.application.liveBus.publish(MessagePosting.topic(access.id), on: req.db)
        try await MessagePosting.countsChanged(try await ConversationSeats.everyone(in: access.conversation, on: req.db), app: req.application)
        req.flash(.success, t("Message deleted."))
        return req.redirect(to: SiteURL.conversation(access.id))
    }

    struct ReportForm: Content { var reason: String? }

    func report(req: Request) async throws -> Response {
        let (access, message) = try await load(req)
        guard message.$author.id != access.viewer.id else { throw Abort(.forbidden, reason: t("You cannot report your own message.")) }
        let typed = (try req.content.decode(ReportForm.self).reason ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        // Cut in characters and bounded in bytes, as a message is.
        let reason = String(decoding: Array(String(typed.prefix(MessageReport.maxReason)).utf8.prefix(MessageReport.maxReason * 4)), as: UTF8.self)
        let report = MessageReport()
        report.$message.id = try message.requireID()
        report.$reporter.id = try access.viewer.requireID()
        report.$author.id = message.$author.id
        report.body = message.body
        report.conversationKind = access.conversation.kind.rawValue
        report.reason = reason
        report.createdAt = req.now
        do {
            try await report.create(on: req.db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Reported already by this person: one report counts once.
        }
        req.flash(
            .success,
            access.conversation.kind == .direct
                ? t("Thank you. The site's admins will look at this message.")
                : t("Thank you. The moderators and the site's admins will look at this message."))
        return req.redirect(to: SiteURL.conversation(access.id))
    }

    /// Blocks whoever wrote the message, named or not: a teen must be able to block an adult
    /// whose profile they cannot see.
    func blockAuthor(req: Request) async throws -> Response {
        let (access, message) = try await load(req)
        guard message.$author.id != access.viewer.id else { throw Abort(.forbidden, reason: t("You cannot block yourself.")) }
        try await Block.make(blocker: access.viewer.requireID(), blocked: message.$author.id, at: req.now, on: req.db)
        req.flash(.success, t("Blocked. They can no longer message you or invite you, and they aren't told."))
        return req.redirect(to: SiteURL.conversation(access.id))
    }

    func hide(req: Request) async throws -> Response {
        let (access, message) = try await load(req)
        // Not one's own: a moderator's reported message is for the site's admins to judge.
        guard access.moderates, message.$author.id != access.viewer.id else {
            throw Abort(.forbidden, reason: t("Only the conversation's moderators can hide a message."))
        }
        try await MessageModeration.hide(message, now: req.now, app: req.application)
        req.flash(.success, t("Message hidden."))
        return req.redirect(to: SiteURL.conversation(access.id))
    }
}

/// Hiding a message and settling its reports, for moderators and admins alike.
enum MessageModeration {
    static func hide(_ message: Message, now: Date, app: Application) async throws {
        try await app.db.inTransaction { db in
            message.hiddenAt = now
            try await message.update(on: db)
            try await settle(message.requireID(), now: now, on: db)
        }
        let conversation = try await message.$conversation.get(on: app.db)
        try await app.liveBus.publish(MessagePosting.topic(try conversation.requireID()), on: app.db)
        try await MessagePosting.countsChanged(try await ConversationSeats.everyone(in: conversation, on: app.db), app: app)
    }

    static func settle(_ message: UUID, now: Date, on db: any Database) async throws {
        try await MessageReport.query(on: db).filter(\.$message.$id == message).filter(\.$resolvedAt == nil).set(\.$resolvedAt, to: now).update()
    }
}
