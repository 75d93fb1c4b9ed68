import Vapor

/// Logs each answered request (method, path, status, milliseconds, and as metadata the route
/// pattern, which `LOG_FORMAT=json` writes as fields) and counts it in the app's metrics. The
/// secrets that live in some paths are masked: a calendar feed's or an invitation link's token is a
/// key to someone's games or team, and logs are read by more people, and kept longer, than keys should be.
struct RequestLogMiddleware: AsyncMiddleware {
    let logLevel: Logger.Level

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let started = ContinuousClock.now
        // At debug level the start is logged too: a request that brings the process down never finishes.
        request.logger.debug("\(request.method) \(Self.masked(request.url.path)) started")
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
            level: logLevel, "\(request.method) \(Self.masked(request.url.path)) \(status.code) \(String(format: "%.1f", milliseconds)) ms",
            metadata: ["route": .string(route), "status": .stringConvertible(status.code), "duration_ms": .string(String(format: "%.1f", milliseconds))])
    }

    /// Paths whose last part is a bearer secret.
    static let secretPrefixes = ["/calendar/", "/join/", "/email/", "/password/reset/"]

    static func masked(_ path: String) -> String {
        let decoded = path.removingPercentEncoding ?? path
        // Anywhere in the path: "//calendar/…" reaches the same route.
        for prefix in secretPrefixes {
            if let range = decoded.range(of: prefix) {
                return String(decoded[..<range.upperBound]) + "…" + (decoded.hasSuffix(".ics") ? ".ics" : "")
            }
        }
        // One line per request: a path cannot add lines of its own.
        return String(decoded.map { $0.isNewline ? " " : $0 })
    }
}
