import Crypto
import Fluent
import NIOConcurrencyHelpers
import PostgresKit
import SQLKit
import Vapor

/// Tells every process of the site that something happened under a topic (`samples:<person>`),
/// so the pages held open on any process (server-sent events) can follow.
///
/// A signal carries only its topic: subscribers read what changed from the database, so a signal
/// may be late, merged with the next or sent twice without harm. With one process on SQLite it goes
/// from publisher to subscribers in memory. On PostgreSQL it is a `NOTIFY` on one channel, and every
/// process `LISTEN`s on a connection of its own (`LiveBusLifecycle`) and hands each signal to its
/// own subscribers: a viewer on one process sees what reached another, with no broker of our own.
final class LiveBus: Sendable {
    /// Topics are short names made by the app; anything longer is not one (NOTIFY allows 8000 bytes).
    static let maxTopicLength = 200

    private struct Subscriber {
        let continuation: AsyncStream<Void>.Continuation
    }

    private let subscribers = NIOLockedValueBox<[String: [UUID: Subscriber]]>([:])
    /// Handlers of every topic under a prefix, for the whole life of the process (`PersonChanges`).
    private let prefixListeners = NIOLockedValueBox<[(prefix: String, handler: @Sendable (Substring) -> Void)]>([])
    /// The PostgreSQL channel, or nil on SQLite. One per database schema, so test runs sharing a
    /// server in separate schemas do not hear each other.
    let channel: String?

    init(config: AppConfig) {
        if case .postgres(let url, let searchPath) = config.database {
            let digest = SHA256.hash(data: Data((url + "|" + (searchPath ?? "")).utf8))
            channel = "fieldhouse_live_" + Format.hex(digest.prefix(6))
        } else {
            channel = nil
        }
    }

    /// A stream of signals for `topic` until the stream is dropped or `cancel` runs. Signals that
    /// arrive while the subscriber is busy are merged into one.
    func subscribe(_ topic: String) -> AsyncStream<Void> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        subscribers.withLockedValue { $0[topic, default: [:]][id] = Subscriber(continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLockedValue { all in
                all[topic]?[id] = nil
                if all[topic]?.isEmpty == true { all[topic] = nil }
            }
        }
        return stream
    }

    /// Whether anyone on this process follows the topic (for tests and metrics).
    func subscriberCount(_ topic: String) -> Int {
        subscribers.withLockedValue { $0[topic]?.count ?? 0 }
    }

    /// Signals `topic` on every process. On PostgreSQL the signal is sent with `db` (inside its
    /// transaction, if any: listeners hear it once the change is committed) and comes back to this
    /// process through its listener like to any other.
    func publish(_ topic: String, on db: any Database) async throws {
        guard topic.utf8.count <= Self.maxTopicLength else { return }
        guard let channel, let sql = db as? any SQLDatabase else {
            deliver(topic)
            return
        }
        try await sql.raw("SELECT pg_notify(\(bind: channel), \(bind: topic))").run()
    }

    /// Calls `handler` with the rest of every topic that starts with `prefix`, on this process.
    func listen(prefix: String, _ handler: @escaping @Sendable (Substring) -> Void) {
        prefixListeners.withLockedValue { $0.append((prefix, handler)) }
    }

    /// Hands a signal to this process's subscribers of `topic`.
    func deliver(_ topic: String) {
        for listener in prefixListeners.withLockedValue({ $0 }) where topic.hasPrefix(listener.prefix) {
            listener.handler(topic.dropFirst(listener.prefix.count))
        }
        let targets = subscribers.withLockedValue { $0[topic].map { Array($0.values) } ?? [] }
        for target in targets { target.continuation.yield(()) }
    }
}

extension Application {
    private struct LiveBusKey: StorageKey { typealias Value = LiveBus }

    /// The app's live signals (`LiveBus`), made on first use from the configuration.
    var liveBus: LiveBus {
        if let bus = storage[LiveBusKey.self] { return bus }
        let bus = LiveBus(config: config)
        storage[LiveBusKey.self] = bus
        return bus
    }
}

/// On PostgreSQL, keeps one connection per process listening on the bus's channel, reconnecting
/// after a second when it drops (a restarted database, a network blip): signals sent meanwhile are
/// lost, which only delays a page until the next one.
final class LiveBusLifecycle: LifecycleHandler {
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// The listening connection, closed at shutdown to end the wait for the next notification.
    private let connection = NIOLockedValueBox<PostgresConnection?>(nil)

    func didBootAsync(_ app: Application) async throws {
        guard let channel = app.liveBus.channel, case .postgres(let url, _) = app.config.database else { return }
        let configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        let bus = app.liveBus
        let logger = app.logger
        let eventLoop = app.eventLoopGroup.any()
        let current = connection
        task.withLockedValue {
            $0 = Task.detached {
                while !Task.isCancelled {
                    do {
                        let connection = try await PostgresConnection.connect(
                            on: eventLoop, configuration: configuration, id: 0, logger: logger
                        ).get()
                        current.withLockedValue { $0 = connection }
                        do {
                            try await connection.listen(on: channel) { notifications in
                                for try await notification in notifications { bus.deliver(notification.payload) }
                            }
                        } catch {
                            current.withLockedValue { $0 = nil }
                            try? await connection.close()
                            throw error
                        }
                        current.withLockedValue { $0 = nil }
                        try? await connection.close()
                    } catch {
                        if Task.isCancelled { return }
                        logger.warning("live signals: listening stopped (\(error)); trying again in a second")
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    func shutdownAsync(_ app: Application) async {
        let running = task.withLockedValue { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        running?.cancel()
        try? await connection.withLockedValue { $0 }?.close().get()
        await running?.value
    }
}

/// The topics of `LiveBus`, named in one place so publishers and subscribers in different
/// features spell them alike.
enum LiveTopic {
    /// A person's samples were stored (any device, any process).
    static func samples(of person: UUID) -> String { "samples:" + SiteURL.id(person) }
    /// A workout changed in a way its live viewers must hear of: finished, deleted, shared otherwise.
    static func workout(_ workout: UUID) -> String { "workout:" + SiteURL.id(workout) }
    /// Something kept in memory about a person changed (`PersonChanges`).
    static func person(_ person: UUID) -> String { personPrefix + SiteURL.id(person) }
    static let personPrefix = "person:"
}
