@testable import App
import Crypto
import Fluent
import Foundation
import Testing
import Vapor

/// Notifications by Web Push, through a real push service on loopback (`scripts/push-server.py`)
/// that checks the VAPID token and decrypts what arrives with the subscription's own private key.
@Suite("Web Push: subscriptions, sending, retries")
struct PushTests {
    /// Owner Olga subscribes a browser through the settings page's route; Nils asks to join her team.
    struct Scene {
        let owner, requester: Browser
        let slug: String
        let subscription: PushServer.Subscription
    }

    static func scene(_ app: TestApp, _ server: PushServer) async throws -> Scene {
        let owner = app.browser()
        try await owner.signUp("owner_o", name: "Olga Owner")
        let slug = try await owner.createTeam("Riverside Futsal")
        let key = try #require(try await owner.get("/settings/notifications").firstMatch(#"data-push-key="([A-Za-z0-9_-]+)""#))
        #expect(key == app.app.vapidKey.publicKeyBase64URL)
        let subscription = try await server.subscribe(serverKey: key, now: app.clock.now)
        let subscribed = try await owner.post(
            "/settings/notifications/push", [("endpoint", subscription.endpoint), ("p256dh", subscription.p256dh), ("auth", subscription.auth)],
            csrfFrom: "/settings/notifications")
        #expect(subscribed.status == .seeOther && subscribed.location == "/settings/notifications#push")
        #expect(try await owner.get("/settings/notifications").contains("1 browser shows your notifications."))
        let requester = app.browser()
        try await requester.signUp("newbie_n", name: "Nils Newbie")
        return Scene(owner: owner, requester: requester, slug: slug, subscription: subscription)
    }

    static func askToJoin(_ scene: Scene) async throws {
        let join = try await scene.requester.post("/teams/\(scene.slug)/join", [("message", "Left footed")], csrfFrom: "/teams/\(scene.slug)")
        #expect(join.status == .seeOther)
    }

    /// The push carries the notification's own text and link, as the bell shows them, encrypted so
    /// that only the subscription's key opens it, with a valid VAPID token, TTL and Urgency.
    @Test func aNotificationArrivesDecryptedAsTheBellShowsIt() async throws {
        try await withPushApp { app, server in
            let scene = try await Self.scene(app, server)
            try await Self.askToJoin(scene)
            #expect(try await server.received().isEmpty)
            try await app.app.jobs.runDue(app.app)
            let received = try await server.received()
            #expect(received.count == 1)
            let push = try #require(received.first)
            #expect(push.status == 201, "\(push.error ?? "")")
            #expect(push.error == nil && push.ttl == "86400" && push.urgency == "normal")
            let notification = try #require(
                try await Notification.query(on: app.db).filter(\.$kind == Notification.Kind.joinRequest.rawValue).first())
            #expect(notification.text.contains("Nils Newbie asked to join Riverside Futsal"))
            #expect(try await scene.owner.get("/notifications").main.contains(notification.text))
            #expect(push.payload?.title == "Fieldhouse")
            #expect(push.payload?.body == notification.text)
            #expect(push.payload?.url == app.app.config.baseURL + notification.link && notification.link.hasPrefix("/"))
            let row = try #require(try await PushSubscription.query(on: app.db).first())
            #expect(row.lastSuccessAt != nil)
            // The requester has no browser subscribed: nothing went anywhere else.
            #expect(try await PushSubscription.query(on: app.db).count() == 1)
        }
    }

    /// A team message goes to the browsers of members who chose Messages and have not read it,
    /// named as the page names them; a muted conversation sends nothing.
    @Test func aMessageReachesTheBrowsersOfThoseWhoHaveNotReadIt() async throws {
        try await withPushApp { app, server in
            let cast = try await TeamCast.make(app, privacy: "private")
            var subscriptions: [String: PushServer.Subscription] = [:]
            for (name, browser) in [("owner", cast.owner), ("coach", cast.coach)] {
                let key = try #require(try await browser.get("/settings/notifications").firstMatch(#"data-push-key="([A-Za-z0-9_-]+)""#))
                let subscription = try await server.subscribe(serverKey: key, now: app.clock.now)
                let subscribed = try await browser.post(
                    "/settings/notifications/push",
                    [("endpoint", subscription.endpoint), ("p256dh", subscription.p256dh), ("auth", subscription.auth)],
                    csrfFrom: "/settings/notifications")
                #expect(subscribed.status == .seeOther)
                subscriptions[name] = subscription
            }
            let opened = try await cast.player.get("/teams/\(cast.slug)/messages")
            let path = try #require(opened.location)
            try await cast.player.post(path, [("body", "Pitch moved to **19:00**")], csrfFrom: path)
            // The coach reads it on the site before the push goes: the coach's browser is spared.
            #expect(try await cast.coach.get(path).contains("Pitch moved"))
            try await app.app.jobs.runDue(app.app)
            let received = try await server.received()
            #expect(received.count == 1)
            let push = try #require(received.first)
            #expect(push.status == 201 && push.error == nil, "\(push.error ?? "")")
            #expect(push.subscription == subscriptions["owner"]?.id)
            #expect(push.payload?.title == "Matrix United")
            #expect(push.payload?.body == "Pia Player: Pitch moved to **19:00**")
            #expect(push.payload?.url.hasPrefix(app.app.config.baseURL + path + "#m-") == true)
            // Muted: the next message reaches the coach's browser, and not the owner's.
            try await cast.owner.post(path + "/mute", [("muted", "1")], csrfFrom: path)
            try await cast.player.post(path, [("body", "Who has the bibs?")], csrfFrom: path)
            try await app.app.jobs.runDue(app.app)
            let later = try await server.received()
            #expect(later.map(\.subscription) == [subscriptions["owner"]?.id, subscriptions["coach"]?.id].compactMap { $0 })
            #expect(later.last?.payload?.body == "Pia Player: Who has the bibs?")
        }
    }

    /// A push cannot be taken back, so what was queued with the message is asked again when it goes:
    /// someone who left the team meanwhile, or blocked the author, hears nothing of it.
    @Test func aMessagePushIsNotSentToSomeoneWhoLeftOrBlockedTheAuthorMeanwhile() async throws {
        try await withPushApp { app, server in
            let cast = try await TeamCast.make(app, privacy: "private")
            for browser in [cast.owner, cast.coach] {
                let key = try #require(try await browser.get("/settings/notifications").firstMatch(#"data-push-key="([A-Za-z0-9_-]+)""#))
                let subscription = try await server.subscribe(serverKey: key, now: app.clock.now)
                let subscribed = try await browser.post(
                    "/settings/notifications/push",
                    [("endpoint", subscription.endpoint), ("p256dh", subscription.p256dh), ("auth", subscription.auth)],
                    csrfFrom: "/settings/notifications")
                #expect(subscribed.status == .seeOther)
            }
            let path = try #require(try await cast.player.get("/teams/\(cast.slug)/messages").location)
            #expect(try await cast.player.post(path, [("body", "Secret new kick-off time")], csrfFrom: path).status == .seeOther)
            #expect(try await Job.query(on: app.db).filter(\.$kind == MessagePushJob.name).count() == 2, "queued for both browsers")
            #expect(try await cast.coach.post("/teams/\(cast.slug)/leave", [], csrfFrom: "/teams/\(cast.slug)").status == .seeOther)
            #expect(try await cast.owner.post("/u/player_p/block", [], csrfFrom: "/u/player_p").status == .seeOther)
            try await app.app.jobs.runDue(app.app)
            #expect(try await server.received().isEmpty)
        }
    }

    @Test func aGoneSubscriptionIsRemoved() async throws {
        try await withPushApp { app, server in
            let scene = try await Self.scene(app, server)
            try await server.answer(scene.subscription, with: 410)
            try await Self.askToJoin(scene)
            try await app.app.jobs.runDue(app.app)
            #expect(try await server.received().map(\.status) == [410])
            #expect(try await PushSubscription.query(on: app.db).count() == 0)
            #expect(try await Job.query(on: app.db).filter(\.$kind == PushSendJob.name).first()?.state == .done)
            #expect(try await scene.owner.get("/settings/notifications").contains("1 browser shows") == false)
        }
    }

    /// A busy push service (500) is tried again after the runner's back-off, and the message arrives.
    @Test func aServerErrorIsTriedAgainLater() async throws {
        try await withPushApp { app, server in
            let scene = try await Self.scene(app, server)
            try await server.answer(scene.subscription, with: 500, times: 2)
            try await Self.askToJoin(scene)
            try await app.app.jobs.runDue(app.app)
            #expect(try await server.received().map(\.status) == [500])
            let job = try #require(try await Job.query(on: app.db).filter(\.$kind == PushSendJob.name).first())
            #expect(job.state == .queued && job.attempts == 1 && job.lastError?.contains("500") == true)
            try await app.app.jobs.runDue(app.app)
            #expect(try await server.received().count == 1)
            app.clock.advance(by: JobRunner.backoff[0] + 1)
            try await app.app.jobs.runDue(app.app)
            app.clock.advance(by: JobRunner.backoff[1] + 1)
            try await app.app.jobs.runDue(app.app)
            let statuses = try await server.received().map(\.status)
            #expect(statuses == [500, 500, 201])
            #expect(try await server.received().last?.payload?.body.contains("Nils Newbie asked to join Riverside Futsal") == true)
            #expect(try await PushSubscription.query(on: app.db).count() == 1)
            #expect(try await Job.find(job.id, on: app.db)?.state == .done)
        }
    }

    /// Topics chosen for this browser on the settings page decide what it gets; stopping removes it.
    @Test func thisBrowsersTopicsAndStopping() async throws {
        try await withPushApp { app, server in
            let scene = try await Self.scene(app, server)
            let row = try #require(try await PushSubscription.query(on: app.db).first())
            #expect(row.chosen == Set(NotificationTopic.allCases))
            // Every topic under the bell, and only games on this browser.
            var fields = NotificationTopic.allCases.map { ("in_app[]", $0.rawValue) }
            fields += [("push[]", "games"), ("push_endpoint", scene.subscription.endpoint)]
            let saved = try await scene.owner.post("/settings/notifications", fields, csrfFrom: "/settings/notifications")
            #expect(saved.status == .seeOther)
            #expect(try await PushSubscription.query(on: app.db).first()?.chosen == [.games])
            try await Self.askToJoin(scene)
            try await app.app.jobs.runDue(app.app)
            #expect(try await server.received().isEmpty)
            // Someone else's form cannot change this browser's choices.
            let other = app.browser()
            try await other.signUp("other_x", name: "Xavi Other")
            _ = try await other.post(
                "/settings/notifications", [("push[]", "teams"), ("push_endpoint", scene.subscription.endpoint)], csrfFrom: "/settings/notifications")
            #expect(try await PushSubscription.query(on: app.db).first()?.chosen == [.games])
            let stopped = try await scene.owner.post(
                "/settings/notifications/push/stop", [("endpoint", scene.subscription.endpoint)], csrfFrom: "/settings/notifications")
            #expect(stopped.status == .seeOther)
            #expect(try await PushSubscription.query(on: app.db).count() == 0)
        }
    }

    /// What a page hands over is checked: only https push services on named hosts (the loopback
    /// test server only when the configuration allows it), real P-256 points, 16-byte secrets.
    @Test func hostileSubscriptionsAreRefused() async throws {
        try await withApp { app in
            let owner = app.browser()
            try await owner.signUp("owner_o", name: "Olga Owner")
            let key = WebPush.base64URL(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
            let auth = WebPush.base64URL(WebPush.randomBytes(16))
            for (endpoint, p256dh, secret) in [
                ("http://127.0.0.1:9/push/1", key, auth),
                ("https://127.0.0.1/push/1", key, auth),
                ("https://10.0.0.7/push", key, auth),
                ("https://localhost/push", key, auth),
                ("https://push.example.net:8443/x", key, auth),
                ("https://user:pw@push.example.net/x", key, auth),
                ("https://push.example.net/" + String(repeating: "a", count: 1100), key, auth),
                ("https://push.example.net/a b", key, auth),
                ("javascript:alert(1)", key, auth),
                ("https://push.example.net/x", "BAAA", auth),
                ("https://push.example.net/x", "B" + String(repeating: "A", count: 86), auth),
                ("https://push.example.net/x", key, "c2hvcnQ"),
            ] {
                let answer = try await owner.post(
                    "/settings/notifications/push", [("endpoint", endpoint), ("p256dh", p256dh), ("auth", secret)], csrfFrom: "/settings/notifications")
                #expect(answer.status == .badRequest, "\(endpoint.prefix(60))")
            }
            #expect(try await PushSubscription.query(on: app.db).count() == 0)
            let fine = try await owner.post(
                "/settings/notifications/push", [("endpoint", "https://fcm.googleapis.com/fcm/send/abc:def"), ("p256dh", key), ("auth", auth)],
                csrfFrom: "/settings/notifications")
            #expect(fine.status == .seeOther)
            // Without the CSRF token nothing is taken.
            let forged = try await owner.post(
                "/settings/notifications/push", [("endpoint", "https://push.example.net/y"), ("p256dh", key), ("auth", auth)], csrfFrom: nil)
            #expect(forged.status == .forbidden)
            #expect(try await PushSubscription.query(on: app.db).count() == 1)
            // Signed out, the route sends to the sign-in page and keeps nothing.
            let anonymous = try await app.browser().post(
                "/settings/notifications/push", [("endpoint", "https://push.example.net/z"), ("p256dh", key), ("auth", auth)], csrfFrom: "/login")
            #expect(anonymous.status == .seeOther && anonymous.location?.hasPrefix("/login") == true)
            #expect(try await PushSubscription.query(on: app.db).count() == 1)
        }
    }

    /// Two processes on one store sign with one key, the one their pages give browsers.
    @Test func twoProcessesShareTheSiteKey() async throws {
        try await withTwoProcesses { first, second in
            let key = first.app.vapidKey.publicKeyBase64URL
            #expect(second.app.vapidKey.publicKeyBase64URL == key)
            let visitor = second.browser()
            try await visitor.signUp("second_s", name: "Sam Second")
            #expect(try await visitor.get("/settings/notifications").contains(#"data-push-key="\#(key)""#))
        }
    }
}
