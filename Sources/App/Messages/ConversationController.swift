import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/messages/{id}`: a conversation, newest at the bottom, paged back in time; the form under it
/// writes (a reload shows what others wrote); `/messages/{id}/events` streams new messages to an
/// open page (server-sent events, woken by `LiveBus` on every process).
struct ConversationController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(MessagesPath.conversation, use: page)
        routes.post(MessagesPath.conversation, use: post)
        routes.get(MessagesPath.conversationEvents) { try await ConversationEvents.stream(req: $0) }
        routes.post(MessagesPath.muteConversation, use: mute)
    }

    struct Page: Encodable {
        let layout: Layout
        let title: String
        let kind: String
        let subjectURL: String
        let messages: [MessageItem]
        let pager: Pager
        let isLatest: Bool
        let action: String
        let body: String
        let error: String?
        let replyTo: MessageItem.Quote?
        let replyToID: String?
        let refusal: String?
        let muted: Bool
        let muteAction: String
        let eventsURL: String?
        let maxBody: Int
        /// A new key for each form drawn (`MessagePosting`).
        let key: String
    }

    func page(req: Request) async throws -> Response {
        let access = try await ConversationAccess.load(req)
        return try await render(req, access, body: "", error: nil, replyTo: req.query[String.self, at: "reply"])
    }

    private func render(
        _ req: Request, _ access: ConversationAccess, body: String, error: String?, replyTo: String?, status: HTTPStatus = .ok
    ) async throws -> Response {
        var pager = Pager(req: req, perPage: Message.pageSize)
        let rows = try await Message.query(on: req.db).filter(\.$conversation.$id == access.id).with(\.$author)
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).offset(pager.offset).limit(pager.fetchLimit).all()
        let messages = Array(pager.finish(rows, at: .conversation(access.id), query: []).reversed())
        let builder = MessageItems(access: access, now: req.now, today: req.clock.today, format: Format(access.viewer))
        let items = try await builder.items(messages, on: req.db)
        let member = try await ReadMarks.member(access, on: req.db)
        if pager.page == 1, let newest = messages.last, newest.createdAt > member?.lastReadAt ?? .distantPast {
            try await ReadMarks.markRead(access, upTo: try newest.requireID(), app: req.application)
        }
        let quote = try await Self.quote(replyTo, access: access, builder: builder, on: req.db)
        let page = Page(
            layout: req.layout(title: t("Messages: {title}", access.title), section: .messages, hasForms: true), title: access.title,
            kind: access.conversation.kind.rawValue, subjectURL: access.subjectURL, messages: items, pager: pager, isLatest: pager.page == 1,
            action: SiteURL.conversation(access.id).path, body: body, error: error, replyTo: quote, replyToID: quote == nil ? nil : replyTo,
            refusal: access.refusal,
            muted: member?.muted ?? false, muteAction: SiteURL.muteConversation(access.id).path,
            eventsURL: pager.page == 1 ? SiteURL.conversationEvents(access.id).path : nil, maxBody: Message.maxBody,
            key: RandomToken.make())
        let response = try await req.view.render("messages/conversation", page).encodeResponse(status: status, for: req)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    /// The message being answered, as the form quotes it: one of this conversation's that the
    /// viewer can read.
    private static func quote(_ raw: String?, access: ConversationAccess, builder: MessageItems, on db: any Database) async throws -> MessageItem.Quote? {
        guard let id = raw.flatMap(UUID.init(uuidString:)),
            let quoted = try await Message.query(on: db).filter(\.$id == id).filter(\.$conversation.$id == access.id).with(\.$author).first(),
            let item = try await builder.items([quoted], on: db).first, item.folded == nil
        else { return nil }
        return MessageItem.Quote(author: item.author, excerpt: Format.excerpt(quoted.body), url: SiteURL.conversation(access.id).fragment(item.anchor))
    }

    struct Form: Content {
        var body: String?
        var replyTo: String?
        var key: String?

        enum CodingKeys: String, CodingKey {
            case body, key
            case replyTo = "reply_to"
        }
    }

    func post(req: Request) async throws -> Response {
        let access = try await ConversationAccess.load(req)
        let form = try req.content.decode(Form.self)
        let body = (form.body ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            let message = try await MessagePosting.post(
                body, replyTo: form.replyTo, key: form.key, in: access, now: req.now, app: req.application)
            return req.redirect(to: SiteURL.conversation(access.id).fragment("m-" + SiteURL.id(try message.requireID())))
        } catch let refusal as MessagePosting.Refusal {
            if refusal.status == .forbidden { throw Abort(.forbidden, reason: refusal.reason) }
            return try await render(req, access, body: body, error: refusal.reason, replyTo: form.replyTo, status: refusal.status)
        }
    }

    struct MuteForm: Content {
        var muted: String?
    }

    func mute(req: Request) async throws -> Response {
        let access = try await ConversationAccess.load(req)
        let muted = (try req.content.decode(MuteForm.self).muted ?? "") == "1"
        if try await ReadMarks.member(access, on: req.db) == nil {
            try await MessagePosting.addMembers([access.viewer.requireID()], to: access.id, readUpTo: req.now, on: req.db)
        }
        try await ConversationMember.query(on: req.db).filter(\.$conversation.$id == access.id).filter(\.$user.$id == access.viewer.requireID())
            .set(\.$muted, to: muted).update()
        try await MessagePosting.countsChanged([access.viewer.requireID()], app: req.application)
        req.flash(.success, muted ? t("Conversation muted: it no longer counts as unread.") : t("Conversation unmuted."))
        return req.redirect(to: SiteURL.conversation(access.id))
    }
}
