import Fluent
import SQLKit
import Vapor

/// `/messages`: every conversation the person is in that has messages, newest first, with what is
/// unread; and the doors into a conversation from a team, game or plan page or a profile.
struct MessageInboxController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(MessagesPath.inbox, use: inbox)
        // The doors from the subjects' pages: their features name the paths, Messages answers.
        routes.get(TeamPath.teamConversation) { req in
            let slug = (req.parameters.get("slug") ?? "").lowercased()
            guard let team = try await Team.query(on: req.db).filter(\.$slug == slug).first() else { throw Abort(.notFound) }
            return try await openSubject(req, .team, try team.requireID())
        }
        routes.get(GamePath.gameConversation) { try await openSubject($0, .game, $0.parameters.get("id").flatMap(UUID.init(uuidString:))) }
        routes.get(CommunityPath.planConversation) { try await openSubject($0, .plan, $0.parameters.get("id").flatMap(UUID.init(uuidString:))) }
        routes.get(AccountPath.directConversation, use: openDirect)
    }

    struct Row: Encodable {
        let title: String
        let kind: String
        let url: String
        let when: String
        let datetime: String
        let unread: Int
        let muted: Bool
    }

    struct InboxPage: Encodable {
        let layout: Layout
        let conversations: [Row]
        let pager: Pager
    }

    func inbox(req: Request) async throws -> View {
        let viewer = try req.requireUser()
        let viewerID = try viewer.requireID()
        var pager = Pager(req: req, perPage: 30)
        struct Found: Decodable {
            let id: UUID
            let unread: Int
            let muted: Int
        }
        let found = try await req.db.sql.raw(
            """
            SELECT c.id,
              (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id AND m.created_at > cm.last_read_at
                 AND m.author_id <> \(bind: viewerID) AND m.hidden_at IS NULL
                 AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = \(bind: viewerID) AND b.blocked_id = m.author_id)) AS unread,
              CASE WHEN cm.muted THEN 1 ELSE 0 END AS muted
            FROM conversations c LEFT JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.user_id = \(bind: viewerID)
            WHERE c.last_message_at IS NOT NULL AND \(ConversationSeats.seated("\(bind: viewerID)"))
            ORDER BY c.last_message_at DESC, c.id LIMIT \(bind: pager.fetchLimit) OFFSET \(bind: pager.offset)
            """
        ).all(decoding: Found.self)
        let page = pager.finish(found, at: .inbox, query: [])
        let conversations = try await Conversation.query(on: req.db).filter(\.$id ~~ page.map(\.id)).all()
        let byID = Dictionary(conversations.compactMap { c in c.id.map { ($0, c) } }, uniquingKeysWith: { a, _ in a })
        let format = Format(viewer)
        var rows: [Row] = []
        for entry in page {
            guard let conversation = byID[entry.id],
                let access = try? await ConversationAccess.of(conversation, viewer: viewer, today: req.clock.today, on: req.db)
            else { continue }
            let when = conversation.lastMessageAt ?? req.now
            rows.append(
                Row(
                    title: access.title, kind: conversation.kind.label, url: SiteURL.conversation(entry.id).path, when: format.shortWhen(when),
                    datetime: Format.machine(when), unread: entry.muted == 1 ? 0 : entry.unread, muted: entry.muted == 1))
        }
        return try await req.view.render(
            "messages/inbox", InboxPage(layout: req.layout(title: t("Messages"), section: .messages), conversations: rows, pager: pager))
    }

    /// The subject's conversation, for someone with a seat in it; 404 for anyone else, as for a
    /// subject that does not exist.
    func openSubject(_ req: Request, _ kind: Conversation.Kind, _ id: UUID?) async throws -> Response {
        let viewer = try req.requireUser()
        guard let id else { throw Abort(.notFound) }
        let conversation = try await ConversationAccess.conversation(of: kind, subject: id, for: try viewer.requireID(), on: req.db, now: req.now)
        let access = try await ConversationAccess.of(conversation, viewer: viewer, today: req.clock.today, on: req.db)
        return req.redirect(to: SiteURL.conversation(access.id))
    }

    struct RefusedPage: Encodable {
        let layout: Layout
        let name: String
        let profileURL: String
        let reason: String
    }

    /// A direct conversation with the person, started when the rule allows it; one that exists is
    /// opened either way (its history stays readable, its form says why it cannot go on).
    func openDirect(req: Request) async throws -> Response {
        let viewer = try req.requireUser()
        let person = try await PersonAccess.load(req).person
        let (a, b) = (try viewer.requireID(), try person.requireID())
        guard a != b else { throw Abort(.notFound) }
        if let existing = try await ConversationAccess.existingDirect(between: a, and: b, on: req.db) {
            return req.redirect(to: SiteURL.conversation(try existing.requireID()))
        }
        let verdict = try await DirectMessageRule.verdict(from: viewer, to: person, today: req.clock.today, on: req.db)
        if let reason = DirectMessageRule.refusal(verdict, person: person) {
            return try await req.view.render(
                "messages/refused",
                RefusedPage(
                    layout: req.layout(title: t("Message {name}", person.displayName), section: .messages), name: person.displayName,
                    profileURL: SiteURL.person(username: person.username).path, reason: reason)
            ).encodeResponse(status: .forbidden, for: req)
        }
        let conversation = try await ConversationAccess.direct(between: a, and: b, on: req.db, now: req.now)
        return req.redirect(to: SiteURL.conversation(try conversation.requireID()))
    }
}
