import AsyncHTTPClient
import Fluent
import Foundation
import NIOCore
import NIOHTTP1
import Vapor

/// `push.send`: one notification to one browser, through its push service (RFC 8030), encrypted
/// for that browser (RFC 8291) and signed with the site's VAPID key (RFC 8292).
///
/// The message holds the notification's own text and link, as the bell shows them to its
/// recipient: nothing else about anyone. It runs outside a transaction (a push cannot be taken
/// back): a process that dies after the push service took the message and before the job is marked
/// done sends it again, which shows the same notification twice rather than never.
/// A push service that is busy or away (a 429, a 5xx, no answer) is tried again later, backing off
/// (`JobRunner.backoff`); one that says the subscription is gone (404, 410) ends it; any other
/// refusal fails the job for good.
enum PushSendJob {
    static let name = "push.send"
    /// How long the push service keeps a message for a browser that is offline.
    static let timeToLive = 86_400
    /// A push message is read on a phone's lock screen: a long text is cut well below the 4 KB
    /// a push service takes.
    static let maxBodyCharacters = 600

    struct Payload: Codable, Sendable {
        let notification: UUID
        let subscription: UUID
    }

    /// What the service worker reads (`Public/sw.js`).
    struct Message: Encodable {
        let title: String
        let body: String
        let url: String
    }

    static let kind = JobKind(name, transactional: false) { run in
        let payload = try run.payload(as: Payload.self)
        guard let subscription = try await PushSubscription.find(payload.subscription, on: run.db),
            let notification = try await Notification.find(payload.notification, on: run.db),
            notification.$recipient.id == subscription.$user.id
        else { return }
        let message = Message(title: "Fieldhouse", body: excerpt(notification.text), url: run.app.config.absolute(SiteURL.stored(notification.link)))
        let urgent = Notification.Kind(rawValue: notification.kind) == .gameReminder
        try await deliver(message, to: subscription, urgent: urgent, run: run)
    }

    /// A text cut to what a lock screen shows.
    static func excerpt(_ text: String) -> String {
        text.count <= maxBodyCharacters ? text : String(text.prefix(maxBodyCharacters - 1)) + "…"
    }

    /// Encrypts `message` for one browser and hands it to its push service (any feature's push job
    /// ends here): a busy service is tried again later, a gone subscription is removed.
    static func deliver(_ message: Message, to subscription: PushSubscription, urgent: Bool, run: JobRun) async throws {
        let app = run.app
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let endpoint = PushEndpoint.valid(subscription.endpoint, loopback: app.config.pushToLoopback).flatMap(URL.init(string:)),
            let p256dh = WebPush.bytes(base64URL: subscription.p256dh), let auth = WebPush.bytes(base64URL: subscription.auth)
        else {
            try await subscription.delete(on: run.db)
            throw JobGaveUp(description: "The push subscription \(subscription.id.map(SiteURL.id) ?? "?") no longer passes the checks; removed.")
        }
        let body = try WebPush.encrypt(Array(try encoder.encode(message)), p256dh: p256dh, auth: auth)
        var request = HTTPClientRequest(url: subscription.endpoint)
        request.method = .POST
        request.headers.add(
            name: "Authorization",
            value: try WebPush.vapidAuthorization(
                endpoint: endpoint, key: app.vapidKey.privateKey, subject: subject(app.config), expires: run.now.addingTimeInterval(12 * 3600)))
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "TTL", value: String(timeToLive))
        request.headers.add(name: "Urgency", value: urgent ? "high" : "normal")
        request.body = .bytes(ByteBuffer(bytes: body))
        let answer = try await app.http.client.shared.execute(request, timeout: .seconds(15))
        _ = try? await answer.body.collect(upTo: 16_384)
        switch answer.status.code {
        case 200..<300:
            subscription.lastSuccessAt = run.now
            try await subscription.save(on: run.db)
        case 404, 410:
            try await subscription.delete(on: run.db)
        case 429, 500..<600:
            throw Failure(description: "The push service answered \(answer.status.code); trying again later.")
        default:
            throw JobGaveUp(description: "The push service refused the message with \(answer.status.code).")
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Who the push service may write to about this site's pushes: the site's sender address, else
    /// the site itself.
    static func subject(_ config: AppConfig) -> String {
        config.mailFromAddress.map { "mailto:" + $0 } ?? config.baseURL
    }

    /// Queues a push of each new notification to its recipient's browsers that chose its topic,
    /// on `db` (the transaction that wrote the notifications).
    static func queue(_ notifications: [Notification], topic: NotificationTopic, on db: any Database) async throws {
        let recipients = Set(notifications.map(\.$recipient.id))
        guard !recipients.isEmpty else { return }
        let browsers = try await PushSubscription.query(on: db).filter(\.$user.$id ~~ Array(recipients)).field(\.$id).field(\.$user.$id)
            .field(\.$topics).all()
        guard !browsers.isEmpty else { return }
        for notification in notifications {
            let id = try notification.requireID()
            for browser in browsers where browser.$user.id == notification.$recipient.id && browser.chosen.contains(topic) {
                let subscription = try browser.requireID()
                try await Job.enqueue(
                    name, payload: Payload(notification: id, subscription: subscription), at: .distantPast, key: "push:\(id):\(subscription)", on: db)
            }
        }
    }
}
