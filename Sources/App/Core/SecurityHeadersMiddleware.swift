import Vapor

/// Headers every response carries, error pages and static files included.
///
/// No inline script is allowed, so an injected `<script>` or `onclick=` cannot run even if some
/// escaping were ever missed; all behaviour lives in `/js/app.js`.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    /// Every image comes from this server, map tiles too (the tile proxy, `Application.tileRoute`).
    static let contentSecurityPolicy =
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")

    let contentSecurityPolicy = Self.contentSecurityPolicy
    /// Sent when the site runs behind HTTPS (secure cookies on): browsers then never try plain HTTP.
    let strictTransportSecurity: Bool

    init(strictTransportSecurity: Bool = false) {
        self.strictTransportSecurity = strictTransportSecurity
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        let headers = response.headers
        if !headers.contains(name: "Content-Security-Policy") {
            response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        }
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        if strictTransportSecurity { response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: "max-age=31536000") }
        return response
    }
}
