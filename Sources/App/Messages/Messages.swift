import Fluent
import SQLKit
import Vapor

/// Talking: a conversation on every team, game and plan (`ConversationSeats` says who is in
/// it), direct messages between people who follow each other (`DirectMessageRule`), new messages
/// streamed to open pages over `LiveBus`, unread counts in the header, muting, reports to the
/// conversation's moderators and the site's admins, who hide what breaks the rules; each message
/// pushed to the browsers that chose Messages, and an e-mail digest of what stays unread.
enum Messages: Feature {
    static var routePatterns: [String] { MessagesPath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: MessageInboxController())
        try app.register(collection: ConversationController())
        try app.register(collection: MessageController())
        try app.register(collection: ReportsController())
        _ = app.messageStreams
        // The header's count depends on who is in a team or game, and on whom one blocked.
        app.useModelMiddleware(PersonChangeMiddleware<Membership>(changes: app.personChanges, bus: app.liveBus, person: { $0.$user.id }))
        app.useModelMiddleware(PersonChangeMiddleware<GamePlayer>(changes: app.personChanges, bus: app.liveBus, person: { $0.$user.id }))
        app.useModelMiddleware(PersonChangeMiddleware<Block>(changes: app.personChanges, bus: app.liveBus, person: { $0.$blocker.id }))
    }

    static var jobKinds: [JobKind] { [MessagePushJob.kind, MessageDigestJob.kind] }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let added = try await DemoMessages.seed(app: app)
        return added > 0 ? ["Added \(added) demo messages to Riverside Futsal's conversation."] : []
    }

    /// Messages from others after the person's read mark, in conversations they still have a seat
    /// in and have not muted, leaving out hidden ones and those of people they blocked.
    static var headerCounts: [HeaderCount] {
        [
            HeaderCount(
                name: "messages",
                subquery: """
                    SELECT COUNT(*) FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id
                      JOIN messages m ON m.conversation_id = cm.conversation_id AND m.created_at > cm.last_read_at
                    WHERE cm.user_id = u.id AND cm.muted = \(bind: false) AND m.author_id <> u.id AND m.hidden_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = u.id AND b.blocked_id = m.author_id)
                      AND \(ConversationSeats.seated("u.id"))
                    """)
        ]
    }

    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(path: "messages.json", holds: t("the messages you wrote, in which conversation and when")),
            ArchiveEntry(path: "blocked.json", holds: t("the people you blocked")),
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        struct Written: Encodable {
            let conversation: String
            let kind: String
            let text: String
            let at: String
            let edited_at: String
            let hidden: Bool
        }
        let written = try await Message.query(on: archive.db).filter(\.$author.$id == archive.userID).with(\.$conversation).sort(\.$createdAt).all()
        try archive.add(
            "messages.json",
            json: try written.map { message in
                Written(
                    conversation: SiteURL.conversation(try message.conversation.requireID()).path, kind: message.conversation.kind.rawValue,
                    text: message.body, at: AccountArchive.time(message.createdAt), edited_at: AccountArchive.time(message.editedAt),
                    hidden: message.hiddenAt != nil)
            })
        struct Blocked: Encodable {
            let username: String
            let since: String
        }
        let blocked = try await Block.query(on: archive.db).filter(\.$blocker.$id == archive.userID).with(\.$blocked).all()
        try archive.add("blocked.json", json: blocked.map { Blocked(username: $0.blocked.username, since: AccountArchive.time($0.createdAt)) })
    }
}
