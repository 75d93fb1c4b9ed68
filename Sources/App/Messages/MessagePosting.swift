import Fluent
import SQLKit
import Vapor

/// Writing a message: the checks, the row, the read marks of everyone seated, and the signal that
/// wakes every open page of the conversation on every process.
enum MessagePosting {
    /// Why a message was not taken, with the status the form is shown again with.
    struct Refusal: Error {
        let status: HTTPStatus
        let reason: String
    }

    static func topic(_ conversation: UUID) -> String { "conversation:" + SiteURL.id(conversation) }

    static func post(
        _ body: String, replyTo: String?, key: String?, in access: ConversationAccess, now: Date, app: Application
    ) async throws -> Message {
        let db = app.db
        let authorID = try access.viewer.requireID()
        // A form sent twice (a double tap, a retry after a lost answer) is one message.
        let key = key.flatMap { $0.utf8.count <= 64 && !$0.isEmpty ? $0 : nil }
        if let key, let sent = try await Message.query(on: db).filter(\.$author.$id == authorID).filter(\.$clientKey == key).first() {
            return sent
        }
        if let refusal = access.refusal { throw Refusal(status: .forbidden, reason: refusal) }
        try check(body)
        let reply = try await quoted(replyTo, in: access, on: db)
        let message = Message()
        message.$conversation.id = access.id
        message.$author.id = authorID
        message.body = body
        message.replyToID = reply
        message.createdAt = now
        message.clientKey = key
        let seated = try await ConversationSeats.everyone(in: access.conversation, on: db)
        try await db.inTransaction { db in
            // Counted under a lock on the author's row, so parallel posts cannot all pass the limit.
            try await db.lockForCount(User.schema, id: authorID)
            let recent = try await Message.query(on: db).filter(\.$author.$id == authorID).filter(\.$createdAt > now.addingTimeInterval(-60)).count()
            guard recent < Message.perMinute else {
                throw Refusal(status: .tooManyRequests, reason: t("You're sending messages very fast. Wait a minute, then send this one again."))
            }
            try await message.create(on: db)
            try await Conversation.query(on: db).filter(\.$id == access.id).set(\.$lastMessageAt, to: now).update()
            try await MessagePushJob.queue(message, seated: seated, on: db)
        }
        // Everyone seated who has no read mark yet gets one just before this message, so it counts
        // as unread for them (and nothing older does); the author has read it.
        try await addMembers(seated.filter { $0 != authorID }, to: access.id, readUpTo: now.addingTimeInterval(-0.001), on: db)
        try await ReadMarks.markRead(access, upTo: try message.requireID(), app: app)
        try await countsChanged(seated, app: app)
        // After the commit: on SQLite the signal is heard at once, and must find the row.
        try await app.liveBus.publish(topic(access.id), on: db)
        return message
    }

    static func check(_ body: String) throws {
        guard !body.isEmpty else { throw Refusal(status: .unprocessableEntity, reason: t("Write a message first.")) }
        // Counted in characters as people count them, and in bytes: a character can carry any
        // number of combining marks, and every reader draws the message.
        guard body.count <= Message.maxBody, body.utf8.count <= Message.maxBodyBytes else {
            throw Refusal(
                status: .unprocessableEntity,
                reason: t("A message can be at most {max} characters; this one has {count}.", Message.maxBody, body.count))
        }
    }

    /// The message answered: one of this conversation's, or nothing when the field is empty.
    private static func quoted(_ raw: String?, in access: ConversationAccess, on db: any Database) async throws -> UUID? {
        guard let raw, !raw.isEmpty else { return nil }
        guard let id = UUID(uuidString: raw),
            try await Message.query(on: db).filter(\.$id == id).filter(\.$conversation.$id == access.id).first() != nil
        else { throw Refusal(status: .unprocessableEntity, reason: t("The message you were answering is no longer there.")) }
        return id
    }

    /// The header's count of unread messages is kept with each person's session (`signInCache`):
    /// everyone whose count a write moves is told.
    static func countsChanged(_ people: [UUID], app: Application) async throws {
        for person in people { try await app.personChanges.changed(person, bus: app.liveBus, on: app.db) }
    }

    /// Read marks for people who have none in the conversation; those who have one keep it.
    static func addMembers(_ users: [UUID], to conversation: UUID, readUpTo time: Date, on db: any Database) async throws {
        let existing = Set(
            try await ConversationMember.query(on: db).filter(\.$conversation.$id == conversation).filter(\.$user.$id ~~ users).all().map { $0.$user.id })
        let missing = users.filter { !existing.contains($0) }
        guard !missing.isEmpty else { return }
        var insert = db.sql.insert(into: ConversationMember.schema).columns("id", "conversation_id", "user_id", "last_read_at", "muted")
        for user in missing {
            insert = insert.values(SQLBind(UUID()), SQLBind(conversation), SQLBind(user), SQLBind(time), SQLBind(false))
        }
        // Two messages at once may both find someone missing: the second insert leaves theirs be.
        try await insert.ignoringConflicts().run()
    }
}
