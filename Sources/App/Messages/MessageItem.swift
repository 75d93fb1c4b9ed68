import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// One message as a viewer sees it, for the conversation page and its live stream alike (the
/// template `messages/message` draws both).
struct MessageItem: Encodable {
    struct Quote: Encodable {
        let author: String
        let excerpt: String
        let url: String
    }

    let anchor: String
    let author: String
    let authorURL: String?
    let mine: Bool
    /// The message as HTML; nil when it is folded away.
    let html: String?
    /// Why it is folded: hidden by a moderator, or written by someone the viewer blocked.
    let folded: String?
    let quote: Quote?
    let when: String
    let datetime: String
    let edited: Bool
    let replyURL: String?
    let editURL: String?
    let deleteAction: String?
    let reportAction: String?
    let hideAction: String?
    let blockAction: String?
    /// Reports waiting, shown to moderators.
    let reports: Int
}

/// Makes `MessageItem`s for one viewer: names as the viewer may know them, folds, and the actions
/// the viewer may take.
struct MessageItems {
    let access: ConversationAccess
    let now: Date
    let today: CalendarDate
    let format: Format

    func items(_ messages: [Message], on db: any Database) async throws -> [MessageItem] {
        let viewerID = try access.viewer.requireID()
        let quotedIDs = messages.compactMap(\.replyToID)
        let quoted = quotedIDs.isEmpty ? [] : try await Message.query(on: db).filter(\.$id ~~ quotedIDs).with(\.$author).all()
        let quotes = Dictionary(quoted.compactMap { m in m.id.map { ($0, m) } }, uniquingKeysWith: { a, _ in a })
        let people = messages.map(\.author) + quoted.map(\.author)
        let relations = try await Relations.load(viewer: access.viewer, people: people.compactMap(\.id), today: today, on: db)
        let blocked = try await Block.blockedIDs(by: viewerID, on: db)
        let reports = try await openReports(messages.compactMap(\.id), on: db)
        return try messages.map { message in
            try item(message, quote: message.replyToID.flatMap { quotes[$0] }, relations: relations, blocked: blocked, reports: reports)
        }
    }

    private func item(_ message: Message, quote: Message?, relations: Relations, blocked: Set<UUID>, reports: [UUID: Int]) throws -> MessageItem {
        let id = try message.requireID()
        let conversationID = access.id
        let mine = message.$author.id == access.viewer.id
        let isHidden = message.hiddenAt != nil
        let folded: String? =
            isHidden
            ? (mine ? t("Hidden by a moderator; only you see it.") : t("Hidden by a moderator."))
            : blocked.contains(message.$author.id) ? t("A message from someone you blocked.") : nil
        let fresh = now.timeIntervalSince(message.createdAt) < Message.editWindow
        let shown = folded == nil || (mine && isHidden)
        return MessageItem(
            anchor: "m-" + SiteURL.id(id), author: name(message.author, relations), authorURL: link(message.author, relations), mine: mine,
            html: shown ? LearnRendering.html(message.body, as: .message) : nil, folded: folded,
            quote: quote.flatMap { q in
                guard q.hiddenAt == nil, !blocked.contains(q.$author.id), let qid = q.id else { return nil }
                return MessageItem.Quote(
                    author: name(q.author, relations), excerpt: Format.excerpt(q.body),
                    url: SiteURL.conversation(conversationID).fragment("m-" + SiteURL.id(qid)))
            },
            when: format.shortWhen(message.createdAt), datetime: Format.machine(message.createdAt), edited: message.editedAt != nil,
            replyURL: access.refusal == nil && !isHidden ? SiteURL.conversation(conversationID).with([("reply", SiteURL.id(id))]) + "#compose" : nil,
            editURL: mine && fresh && !isHidden ? SiteURL.editMessage(conversationID, id).path : nil,
            deleteAction: (mine && fresh) || access.moderates ? SiteURL.deleteMessage(conversationID, id).path : nil,
            reportAction: !mine && !isHidden ? SiteURL.reportMessage(conversationID, id).path : nil,
            hideAction: access.moderates && !mine && !isHidden ? SiteURL.hideMessage(conversationID, id).path : nil,
            blockAction: !mine && !blocked.contains(message.$author.id) ? SiteURL.blockAuthor(conversationID, id).path : nil,
            reports: access.moderates && !mine ? reports[id] ?? 0 : 0)
    }

    /// A child on a public team's conversation is "a player under 16" to those who would not see
    /// their name on its roster either.
    private func name(_ author: User, _ relations: Relations) -> String {
        PersonAccess.listedName(author, relations.relation(to: author)) ?? PersonAccess.childOnAList
    }

    private func link(_ author: User, _ relations: Relations) -> String? {
        let relation = relations.relation(to: author)
        guard PersonAccess.listedName(author, relation) != nil, PersonAccess.canSeeExists(author, relation) else { return nil }
        return SiteURL.person(username: author.username).path
    }

    private func openReports(_ ids: [UUID], on db: any Database) async throws -> [UUID: Int] {
        guard access.moderates, !ids.isEmpty else { return [:] }
        let open = try await MessageReport.query(on: db).filter(\.$message.$id ~~ ids).filter(\.$resolvedAt == nil).all()
        return Dictionary(grouping: open.compactMap(\.$message.id), by: { $0 }).mapValues(\.count)
    }
}
