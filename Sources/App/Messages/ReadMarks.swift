import Fluent
import SQLKit
import Vapor

/// How far each person has read each conversation (`ConversationMember`), which the unread
/// counts are measured from.
enum ReadMarks {
    static func member(_ access: ConversationAccess, on db: any Database) async throws -> ConversationMember? {
        try await ConversationMember.query(on: db).filter(\.$conversation.$id == access.id).filter(\.$user.$id == access.viewer.requireID()).first()
    }

    /// Moves the viewer's read mark forward to `message` (never back: a slow request must not undo
    /// a later read). The mark is the message's own stored time, copied inside the database: a time
    /// read back into Swift is rounded (to the microsecond), and the message could then still count
    /// as unread.
    static func markRead(_ access: ConversationAccess, upTo message: UUID, app: Application) async throws {
        let viewerID = try access.viewer.requireID()
        let sql = app.db.sql
        let time: SQLQueryString = "(SELECT m.created_at FROM messages m WHERE m.id = \(bind: message) AND m.conversation_id = \(bind: access.id))"
        try await sql.raw(
            """
            INSERT INTO conversation_members (id, conversation_id, user_id, last_read_at, muted)
            SELECT \(bind: UUID()), \(bind: access.id), \(bind: viewerID), \(time), \(bind: false)
            WHERE EXISTS (SELECT 1 FROM messages m WHERE m.id = \(bind: message) AND m.conversation_id = \(bind: access.id))
            ON CONFLICT DO NOTHING
            """
        ).run()
        try await sql.raw(
            """
            UPDATE conversation_members SET last_read_at = \(time)
            WHERE conversation_id = \(bind: access.id) AND user_id = \(bind: viewerID) AND last_read_at < \(time)
            """
        ).run()
        try await MessagePosting.countsChanged([viewerID], app: app)
    }
}
