import Vapor

/// Logs each answered request (method, path, status, milliseconds, and as metadata the route
/// pattern, which `LOG_FORMAT=json` writes as fields) and counts it in the app's metrics. The
/// secrets that live in some paths are masked: a calendar feed's or an invitation link's token is a
/// key to someone's games or team, and logs are read by more people, and kept longer, than keys should be.
/// A route says its path holds a secret with `holdsSecret()`; its requests are logged as the route's
/// pattern with every parameter written "…", so Core keeps no list of other features' addresses.
struct RequestLogMiddleware: AsyncMiddleware {
    let logLevel: Logger.Level

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let started = ContinuousClock.now
        // At debug level the start is logged too: a request that brings the process down never finishes.
        request.logger.debug("\(request.method) \(Self.masked(request)) started")
        let response: Response
        do {
            response = try await next.respond(to: request)
        } catch {
            // Errors become pages further in (ErrorPageMiddleware); one that gets here is still a 500 to count.
            finished(request, status: (error as? any AbortError)?.status ?? .internalServerError, after: ContinuousClock.now - started)
            throw error
        }
        finished(request, status: response.status, after: ContinuousClock.now - started)
        return response
    }

    private func finished(_ request: Request, status: HTTPResponseStatus, after duration: Duration) {
        let route = AppMetrics.routeLabel(request)
        request.application.metrics.request(route: route, method: request.method, status: status, duration: duration)
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        request.logger.log(
            level: logLevel, "\(request.method) \(Self.masked(request)) \(status.code) \(Format.machineNumber(milliseconds, decimals: 1)) ms",
            metadata: [
                "route": .string(route), "status": .stringConvertible(status.code), "duration_ms": .string(Format.machineNumber(milliseconds, decimals: 1)),
            ])
    }

    /// Route `userInfo` key for routes whose path holds a secret (`Route.holdsSecret()`).
    static let secretPath = "log.secretPath"

    /// The path as the log may show it: a secret route's pattern with its parameters masked, else
    /// the path as asked for.
    static func masked(_ request: Request) -> String {
        if let route = request.route, route.userInfo[secretPath] != nil {
            return "/"
                + route.path.map { component in
                    if case .constant(let text) = component { return text }
                    return "…"
                }.joined(separator: "/")
        }
        return masked(request.url.path)
    }

    static func masked(_ path: String) -> String {
        let decoded = path.removingPercentEncoding ?? path
        // One line per request: a path cannot add lines of its own.
        return String(decoded.map { $0.isNewline ? " " : $0 })
    }
}

extension Vapor.Route {
    /// This route's path holds a secret (a token, a key): the request log writes its pattern instead.
    @discardableResult
    func holdsSecret() -> Vapor.Route {
        userInfo[RequestLogMiddleware.secretPath] = true
        return self
    }
}

/// A log handler that never writes the values that go to the database: SQLKit adds a statement's
/// values to its query log as `binds`, Fluent a query's values and conditions as `input` and
/// `filters` (at `LOG_LEVEL=debug`), and they hold reset tokens, CSRF tokens and addresses. The
/// statements themselves, with their placeholders, and what a query reads still reach the log.
public struct SQLValuesHiddenLogHandler: LogHandler {
    var inner: any LogHandler

    public init(_ inner: any LogHandler) { self.inner = inner }

    static let hiddenKeys = ["binds", "input", "filters"]

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt
    ) {
        var metadata = metadata
        for key in Self.hiddenKeys { metadata?[key] = nil }
        inner.log(level: level, message: message, metadata: metadata, source: source, file: file, function: function, line: line)
    }
}
