@testable import App
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// A Web Push service on loopback (`scripts/push-server.py`), one per test: it makes subscriptions
/// as a browser would, checks the VAPID token of every push, decrypts it with the subscription's
/// private key (PyPI's http_ece) and keeps what arrived. `make test` makes its Python environment
/// (`scripts/test-tools.sh`).
final class PushServer: @unchecked Sendable {
    struct Subscription: Decodable {
        let id, endpoint, p256dh, auth: String
    }

    struct Received: Decodable {
        struct Message: Decodable {
            let title, body, url: String
        }
        let subscription: String
        let status: Int
        let error: String?
        let payload: Message?
        let ttl: String?
        let urgency: String?
    }

    private let server: LocalServer
    var port: Int { server.port }

    static func start() throws -> PushServer { PushServer(server: try LocalServer.start("push-server.py", arguments: [])) }

    private init(server: LocalServer) { self.server = server }

    func stop() { server.stop() }

    /// A new browser subscription for a site whose VAPID key is `serverKey` and whose clock reads `now`.
    func subscribe(serverKey: String, now: Date) async throws -> Subscription {
        try await call("POST", "/subscriptions", ["server_key": serverKey, "now": Int(now.timeIntervalSince1970)], as: Subscription.self)
    }

    /// The next `times` pushes to `subscription` (every one, with nil) are answered `status`.
    func answer(_ subscription: Subscription, with status: Int, times: Int? = nil) async throws {
        var request: [String: Any] = ["status": status]
        if let times { request["times"] = times }
        _ = try await call("POST", "/subscriptions/\(subscription.id)/answer", request, as: [String: String].self)
    }

    func received() async throws -> [Received] { try await call("GET", "/received", nil, as: [Received].self) }

    private func call<T: Decodable>(_ method: String, _ path: String, _ body: [String: Any]?, as: T.Type) async throws -> T {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .RAW(value: method)
        if let body { request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))) }
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let data = try await answer.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(T.self, from: Data(data.readableBytesView))
    }
}

/// Runs `test` with a test push server and an app that may send to it.
func withPushApp(_ test: (TestApp, PushServer) async throws -> Void) async throws {
    let server = try PushServer.start()
    defer { server.stop() }
    try await withApp(config: {
        $0.pushToLoopback = true
        // The VAPID token names whom the push service may write to.
        $0.mailFromAddress = "club@fieldhouse.test"
    }) { app in try await test(app, server) }
}
