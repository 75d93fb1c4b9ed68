import Vapor

/// Logs each request's method and path, like Vapor's own route logging, but with the secrets that
/// live in some paths masked: a calendar feed's or an invitation link's token is a key to someone's
/// games or team, and logs are read by more people, and kept longer, than keys should be.
struct RequestLogMiddleware: AsyncMiddleware {
    let logLevel: Logger.Level

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        request.logger.log(level: logLevel, "\(request.method) \(Self.masked(request.url.path))")
        return try await next.respond(to: request)
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
