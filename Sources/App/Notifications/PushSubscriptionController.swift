import Fluent
import SQLKit
import Vapor

/// `/settings/notifications/push`: the settings page's script hands over the subscription its
/// browser's push service made (`pushManager.subscribe` with the site's VAPID key), and takes it
/// back when the person stops notifications on that browser.
struct PushSubscriptionController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(NotificationPath.pushSubscribe, use: subscribe)
        routes.post(NotificationPath.pushStop, use: stop)
    }

    struct SubscribeForm: Content {
        var endpoint: String?
        var p256dh: String?
        var auth: String?
    }

    func subscribe(req: Request) async throws -> Response {
        let userID = try req.requireUser().requireID()
        let form = try req.content.decode(SubscribeForm.self)
        guard let endpoint = form.endpoint.flatMap({ PushEndpoint.valid($0, loopback: req.application.config.pushToLoopback) }) else {
            throw Abort(.badRequest, reason: t("This browser's push service gave an address Fieldhouse cannot send to."))
        }
        guard let p256dh = form.p256dh.flatMap(PushEndpoint.validKey), let auth = form.auth.flatMap(PushEndpoint.validSecret) else {
            throw Abort(.badRequest, reason: t("This browser's push service gave keys Fieldhouse cannot use."))
        }
        // A new browser hears what its owner sees under the bell.
        let off = Set(
            try await NotificationSetting.query(on: req.db).filter(\.$user.$id == userID).filter(\.$inApp == false).all().map(\.topic))
        let topics = PushSubscription.store(Set(NotificationTopic.allCases).subtracting(off))
        try await req.db.inTransaction { db in
            try await db.lockForCount(User.schema, id: userID)
            // One row per endpoint: the browser now belongs to whoever subscribed from it last.
            try await db.sql.raw(
                """
                INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, topics, created_at)
                VALUES (\(bind: UUID()), \(bind: userID), \(bind: endpoint), \(bind: p256dh), \(bind: auth), \(bind: topics), \(bind: req.now))
                ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
                    topics = excluded.topics, created_at = excluded.created_at, last_success_at = NULL
                """
            ).run()
            let kept = try await PushSubscription.query(on: db).filter(\.$user.$id == userID).sort(\.$createdAt, .descending).field(\.$id).all()
            let extra = try kept.dropFirst(PushSubscription.maxPerPerson).map { try $0.requireID() }
            if !extra.isEmpty { try await PushSubscription.query(on: db).filter(\.$id ~~ extra).delete() }
        }
        req.flash(.success, t("This browser will show your notifications."))
        return req.redirect(to: SiteURL.notificationSettings.fragment("push"))
    }

    struct StopForm: Content {
        var endpoint: String?
        /// "all": every browser of the person's, the button that works without script.
        var browsers: String?
    }

    func stop(req: Request) async throws -> Response {
        let userID = try req.requireUser().requireID()
        let form = try req.content.decode(StopForm.self)
        let query = PushSubscription.query(on: req.db).filter(\.$user.$id == userID)
        if form.browsers == "all" {
            try await query.delete()
            req.flash(.success, t("No browser shows your notifications any more."))
        } else {
            guard let endpoint = form.endpoint, endpoint.utf8.count <= PushSubscription.maxEndpoint else {
                throw Abort(.badRequest, reason: t("Choose which browser to stop."))
            }
            try await query.filter(\.$endpoint == endpoint).delete()
            req.flash(.success, t("This browser no longer shows your notifications."))
        }
        return req.redirect(to: SiteURL.notificationSettings.fragment("push"))
    }
}

/// What a subscription a browser hands over must look like before anything is sent to it.
enum PushEndpoint {
    /// An `https://` address on a named host at the usual port (a push service's), no longer than
    /// `PushSubscription.maxEndpoint`; nil for anything else. A hostile page could otherwise make
    /// the server post to a machine on its own network. `loopback` (only ever set by tests,
    /// `AppConfig.pushToLoopback`) also takes `http://127.0.0.1:<port>/…`, the test push server.
    static func valid(_ raw: String, loopback: Bool) -> String? {
        guard (1...PushSubscription.maxEndpoint).contains(raw.utf8.count), raw.utf8.allSatisfy({ (0x21...0x7e).contains($0) }),
            let url = URL(string: raw), let scheme = url.scheme, let host = url.host?.lowercased(), url.user == nil, url.password == nil,
            url.fragment == nil
        else { return nil }
        if loopback, scheme == "http", host == "127.0.0.1" { return raw }
        guard scheme == "https", url.port == nil || url.port == 443 else { return nil }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }),
            host.utf8.allSatisfy({ (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d || $0 == 0x2e }),
            // A dotted number is an address, not a name; a name for this machine or its network is no push service.
            labels.last.map({ !$0.allSatisfy(\.isNumber) }) ?? false, !["localhost", "local", "internal", "home", "lan"].contains(String(labels.last ?? ""))
        else { return nil }
        return raw
    }

    /// A P-256 public key, base64url of its uncompressed point, that is a point on the curve.
    static func validKey(_ raw: String) -> String? {
        guard raw.utf8.count <= 100, let bytes = WebPush.bytes(base64URL: raw), bytes.count == 65,
            (try? P256.KeyAgreement.PublicKey(x963Representation: bytes)) != nil
        else { return nil }
        return WebPush.base64URL(bytes)
    }

    /// The 16-byte auth secret, base64url.
    static func validSecret(_ raw: String) -> String? {
        guard raw.utf8.count <= 30, let bytes = WebPush.bytes(base64URL: raw), bytes.count == 16 else { return nil }
        return WebPush.base64URL(bytes)
    }
}
