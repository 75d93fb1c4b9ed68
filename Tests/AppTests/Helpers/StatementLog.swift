import Foundation
import Logging
import NIOConcurrencyHelpers
import Vapor

/// The SQL statements each request ran, read from the app's own query log (SQLKit logs every
/// statement with the request's id at `trace`). Installed on one test app, it lets a test count
/// what a page costs the database without changing the app.
final class StatementLog: Sendable {
    private let statements = NIOLockedValueBox<[String: [String]]>([:])

    /// Routes the app's log through this one, at `trace`, from now on.
    func install(on app: Application) {
        app.logger = Logger(label: "statements") { _ in Handler(log: self) }
    }

    /// What `body` returns, and the statements of the requests it made (a test reads one page in it).
    func record<T>(_ body: () async throws -> T) async rethrows -> (T, [String]) {
        statements.withLockedValue { $0 = [:] }
        let value = try await body()
        let all = statements.withLockedValue { $0 }
        return (value, all.values.flatMap { $0 })
    }

    fileprivate func add(_ sql: String, request: String) {
        statements.withLockedValue { $0[request, default: []].append(sql) }
    }

    private struct Handler: LogHandler {
        let log: StatementLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            // Background jobs have no request id: only what a request ran counts.
            guard event.message.description == "Executing query", case .string(let request)? = metadata["request-id"],
                case .string(let sql)? = event.metadata?["sql"]
            else { return }
            log.add(sql, request: request)
        }
    }
}
