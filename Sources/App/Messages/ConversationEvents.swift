import FieldhouseKit
import Fluent
import NIOConcurrencyHelpers
import Vapor

/// `/messages/{id}/events`: new messages for an open conversation page, as server-sent events.
/// Each event is one message drawn for this viewer (`messages/message`), with the message's id as
/// the event id, so a reconnecting browser (`Last-Event-ID`) gets what it missed and nothing twice.
/// A message the page shows that is edited, hidden or deleted meanwhile comes as an `update` (drawn
/// again) or a `remove` event, without an id: a moderator's hiding reaches open pages too.
/// The stream ends when the viewer loses their seat, asked again every `keepAlive`, or when a write
/// fails (the browser went away). Delivering a
/// message does not mark it read: a closed tab's stream lives on until its next write fails, and
/// would read for someone who is gone; the next view of the page marks it.
struct ConversationEvents {
    /// How often a quiet stream writes a comment, which is how a closed one is noticed, and asks
    /// again whether its viewer still has a seat.
    static let keepAlive: Duration = .seconds(15)
    /// Open streams one person may hold at once, on this process: a tab each, and no more.
    static let perPerson = 8

    /// What the template of one message needs besides the message: the forms' token.
    struct Streamed: Encodable {
        struct Tokens: Encodable { let csrf: String }
        let layout: Tokens
        /// Read by `#t` when there is no request (`LeafContext.language`).
        let language: String
        let message: MessageItem
    }

    struct Event: Encodable {
        let anchor: String
        let html: String
    }

    static func stream(req: Request) async throws -> Response {
        let access = try await ConversationAccess.load(req)
        let viewerID = try access.viewer.requireID()
        let app = req.application
        guard app.messageStreams.enter(viewerID, limit: perPerson) else {
            throw Abort(.tooManyRequests, reason: t("This conversation is open in too many windows. Close some, then reload."))
        }
        let after = req.headers.first(name: "Last-Event-ID") ?? req.query[String.self, at: "after"]
        let start: Cursor
        let startShown: Shown
        do {
            start = try await Cursor.start(after: after, in: access.id, on: req.db)
            startShown = try await Shown.start(upTo: start, now: app.clock.now, on: req.db)
        } catch {
            app.messageStreams.leave(viewerID)
            throw error
        }
        let signals = app.liveBus.subscribe(MessagePosting.topic(access.id))
        let (db, today, csrf, language) = (req.db, req.clock.today, req.csrfToken, req.language)
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "text", subType: "event-stream", parameters: ["charset": "utf-8"])
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        let body = Response.Body(managedAsyncStream: { writer in
            defer { app.messageStreams.leave(viewerID) }
            var cursor = start
            var shown = startShown
            try await writer.writeBuffer(ByteBuffer(string: "retry: 3000\n\n"))
            // Wakes the loop below now and then without a message: to write a comment (a closed
            // connection fails the write, which ends the stream) and to ask about the seat again.
            let ticks = AsyncStream<Void> { continuation in
                let task = Task {
                    while (try? await Task.sleep(for: keepAlive)) != nil { continuation.yield() }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            for await _ in merge(signals, ticks) {
                // A viewer who left the team, or was blocked in a direct conversation, hears no more.
                guard let current = try? await ConversationAccess.of(access.conversation, viewer: access.viewer, today: today, on: db) else { return }
                let (changed, removed) = try await shown.changes(now: app.clock.now, on: db)
                let fresh = try await cursor.next(on: db)
                shown.add(fresh)
                guard !fresh.isEmpty || !changed.isEmpty || !removed.isEmpty else {
                    try await writer.writeBuffer(ByteBuffer(string: ": keep-alive\n\n"))
                    continue
                }
                func draw(_ messages: [Message]) async throws -> [(UUID, String, String)] {
                    let items = try await Language.$current.withValue(language) {
                        try await MessageItems(access: current, now: app.clock.now, today: today, format: Format(current.viewer)).items(messages, on: db)
                    }
                    var drawn: [(UUID, String, String)] = []
                    for (message, item) in zip(messages, items) {
                        let html = try await app.view.render(
                            "messages/message", Streamed(layout: .init(csrf: csrf), language: language.rawValue, message: item)
                        ).get().data
                        drawn.append((try message.requireID(), item.anchor, String(buffer: html)))
                    }
                    return drawn
                }
                var out = ""
                for (_, anchor, html) in try await draw(changed) { out += Self.event("update", Event(anchor: anchor, html: html)) }
                for id in removed { out += Self.event("remove", Event(anchor: "m-" + SiteURL.id(id), html: "")) }
                for (id, anchor, html) in try await draw(fresh) { out += Self.event("message", Event(anchor: anchor, html: html), id: id) }
                try await writer.writeBuffer(ByteBuffer(string: out))
            }
        })
        return Response(status: .ok, headers: headers, body: body)
    }

    /// One server-sent event; only new messages carry an id, which a reconnecting page resumes from.
    private static func event(_ name: String, _ event: Event, id: UUID? = nil) -> String {
        let json = (try? JSONEncoder().encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return (id.map { "id: \(SiteURL.id($0))\n" } ?? "") + "event: \(name)\ndata: \(json)\n\n"
    }

    /// The messages the open page shows (its latest page, then what the stream sent), and since
    /// when their edits, hidings and deletions have been told.
    struct Shown {
        static let limit = 200
        let conversation: UUID
        var ids: [UUID]
        var since: Date

        static func start(upTo cursor: Cursor, now: Date, on db: any Database) async throws -> Shown {
            let page = try await Message.query(on: db).filter(\.$conversation.$id == cursor.conversation).filter(\.$createdAt <= cursor.time)
                .sort(\.$createdAt, .descending).limit(Message.pageSize).field(\.$id).all()
            return Shown(conversation: cursor.conversation, ids: page.compactMap(\.id), since: now)
        }

        mutating func add(_ messages: [Message]) {
            ids.append(contentsOf: messages.compactMap(\.id))
            if ids.count > Self.limit { ids.removeFirst(ids.count - Self.limit) }
        }

        /// Shown messages edited or hidden since the last look, and those gone.
        mutating func changes(now: Date, on db: any Database) async throws -> (changed: [Message], removed: [UUID]) {
            guard !ids.isEmpty else { return ([], []) }
            let rows = try await Message.query(on: db).filter(\.$id ~~ ids).with(\.$author).all()
            let present = Set(rows.compactMap(\.id))
            let changed = rows.filter { ($0.editedAt.map { $0 > since } ?? false) || ($0.hiddenAt.map { $0 > since } ?? false) }
                .sorted { $0.createdAt < $1.createdAt }
            let removed = ids.filter { !present.contains($0) }
            ids.removeAll { !present.contains($0) }
            since = now
            return (changed, removed)
        }
    }

    /// Two streams of wake-ups as one.
    private static func merge(_ a: AsyncStream<Void>, _ b: AsyncStream<Void>) -> AsyncStream<Void> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let tasks = [a, b].map { stream in
                Task {
                    for await _ in stream { continuation.yield() }
                    continuation.finish()
                }
            }
            continuation.onTermination = { _ in for task in tasks { task.cancel() } }
        }
    }

    /// Where the stream is: the newest message sent, by time, and the ids sent at that same time.
    struct Cursor {
        let conversation: UUID
        var time: Date
        var sentAtTime: Set<UUID>

        /// From the message the page showed last (or now, when it showed none).
        static func start(after raw: String?, in conversation: UUID, on db: any Database) async throws -> Cursor {
            if let id = raw.flatMap(UUID.init(uuidString:)),
                let message = try await Message.query(on: db).filter(\.$id == id).filter(\.$conversation.$id == conversation).first()
            {
                return Cursor(conversation: conversation, time: message.createdAt, sentAtTime: [id])
            }
            let newest = try await Message.query(on: db).filter(\.$conversation.$id == conversation).sort(\.$createdAt, .descending).first()
            return Cursor(conversation: conversation, time: newest?.createdAt ?? .distantPast, sentAtTime: Set([newest?.id].compactMap { $0 }))
        }

        /// Messages written since, oldest first (at most a page: a flood waits for the next wake-up).
        mutating func next(on db: any Database) async throws -> [Message] {
            let rows = try await Message.query(on: db).filter(\.$conversation.$id == conversation).filter(\.$createdAt >= time)
                .sort(\.$createdAt).sort(\.$id).limit(Message.pageSize + sentAtTime.count).with(\.$author).all()
            let fresh = rows.filter { !sentAtTime.contains($0.id!) }.prefix(Message.pageSize)
            guard let last = fresh.last else { return [] }
            if last.createdAt > time { sentAtTime = [] }
            time = last.createdAt
            sentAtTime.formUnion(fresh.filter { $0.createdAt == time }.compactMap(\.id))
            return Array(fresh)
        }
    }
}

/// How many conversation streams each person holds open on this process (`ConversationEvents`).
final class MessageStreams: Sendable {
    private let open = NIOLockedValueBox<[UUID: Int]>([:])

    /// Counts one more for `person`, unless they hold `limit` already.
    func enter(_ person: UUID, limit: Int) -> Bool {
        open.withLockedValue { open in
            guard open[person, default: 0] < limit else { return false }
            open[person, default: 0] += 1
            return true
        }
    }

    func leave(_ person: UUID) {
        open.withLockedValue { open in
            let left = open[person, default: 1] - 1
            open[person] = left > 0 ? left : nil
        }
    }
}

extension Application {
    private struct MessageStreamsKey: StorageKey { typealias Value = MessageStreams }

    var messageStreams: MessageStreams {
        if let streams = storage[MessageStreamsKey.self] { return streams }
        let streams = MessageStreams()
        storage[MessageStreamsKey.self] = streams
        return streams
    }
}
