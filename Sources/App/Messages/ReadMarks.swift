import Fluent
import Vapor

/// How far each person has read each conversation (`ConversationMember`), which the unread
/// counts are measured from.
enum ReadMarks {
    static func member(_ access: ConversationAccess, on db: any Database) async throws -> ConversationMember? {
        try await ConversationMember.query(on: db).filter(\.$conversation.$id == access.id).filter(\.$user.$id == access.viewer.requireID()).first()
    }

    /// Moves the viewer's read mark forward (never back: a slow request must not undo a later read).
    static func markRead(_ access: ConversationAccess, upTo time: Date, app: Application) async throws {
        let viewerID = try access.viewer.requireID()
        let db = app.db
        if let member = try await member(access, on: db) {
            guard member.lastReadAt < time else { return }
            try await ConversationMember.query(on: db).filter(\.$id == member.requireID()).filter(\.$lastReadAt < time)
                .set(\.$lastReadAt, to: time).update()
        } else {
            try await MessagePosting.addMembers([viewerID], to: access.id, readUpTo: time, on: db)
        }
        try await MessagePosting.countsChanged([viewerID], app: app)
    }
}
