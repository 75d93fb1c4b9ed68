import AsyncHTTPClient
import Foundation
import NIOCore
import Vapor

/// A browser's `EventSource` on a page's server-sent events, over real HTTP: the events as they
/// arrive, each waited for with a deadline, so a test reads them in order as a viewer would.
final class EventStream: @unchecked Sendable {
    struct Event: Equatable {
        let name: String
        let data: String

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
        /// `[[lat, lon, t], …]` of an update or a state.
        var points: [[Double]] { (json["points"] as? [[Any]] ?? []).map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } } }
    }

    private actor Inbox {
        var events: [Event] = []
        var closed = false
        func add(_ event: Event) { events.append(event) }
        func close() { closed = true }
        func take() -> Event? { events.isEmpty ? nil : events.removeFirst() }
    }

    let status: HTTPResponseStatus
    private let inbox = Inbox()
    private var reader: Task<Void, Never>?

    private init(status: HTTPResponseStatus) { self.status = status }

    /// Opens `path` with the browser's cookies; a refused stream comes back with its status and no events.
    static func open(_ browser: Browser, _ path: String) async throws -> EventStream {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(browser.app.port)\(path)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if !browser.cookies.isEmpty {
            request.headers.add(name: "Cookie", value: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        let response = try await browser.app.app.http.client.shared.execute(request, timeout: .seconds(30))
        let stream = EventStream(status: response.status)
        let inbox = stream.inbox
        stream.reader = Task {
            var text = ""
            do {
                for try await chunk in response.body {
                    text += String(buffer: chunk)
                    while let end = text.range(of: "\n\n") {
                        let block = String(text[..<end.lowerBound])
                        text = String(text[end.upperBound...])
                        var name = "message", data: [String] = []
                        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                            if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                        }
                        if !data.isEmpty { await inbox.add(Event(name: name, data: data.joined(separator: "\n"))) }
                    }
                }
            } catch {}
            await inbox.close()
        }
        return stream
    }

    /// The status a stream answers with, the stream closed at once.
    static func status(_ browser: Browser, _ path: String) async throws -> HTTPResponseStatus {
        let stream = try await open(browser, path)
        stream.close()
        return stream.status
    }

    /// The next event, or nil when none came within `timeout` (or the stream ended).
    func next(within timeout: Duration = .seconds(5)) async throws -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let event = await inbox.take() { return event }
            if await inbox.closed { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// The next update carrying points, skipping those without (a signal that came before the
    /// samples did, as PostgreSQL may deliver a notification late), or nil after `timeout`.
    func nextWithPoints(within timeout: Duration) async throws -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let event = try await next(within: deadline - ContinuousClock.now) else { return nil }
            if !event.points.isEmpty || event.name != "update" { return event }
        }
        return nil
    }

    /// Whether the server ended the stream within `timeout`.
    func ended(within timeout: Duration = .seconds(5)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await inbox.closed { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    func close() {
        reader?.cancel()
    }
}
