import Vapor

/// Cross-site request forgery protection for every state-changing form.
///
/// Signed-in people carry the token stored with their session; anonymous visitors (signing up,
/// signing in) get it in a cookie of its own. Either way, a POST must send the token back in the
/// `csrf` form field or an `X-CSRF-Token` header. The device API under `/api/` uses bearer tokens
/// and no cookies, so it is exempt.
enum CSRF {
    static let cookieName = "fh_csrf"
    static let fieldName = "csrf"

    struct NewTokenKey: StorageKey { typealias Value = String }

    /// Route `userInfo` key for routes that stream their body and check the token themselves
    /// (`StreamedForm`), so the middleware must not collect a large upload into memory first.
    static let checkedByHandler = "csrf.checkedByHandler"
    /// Route `userInfo` key for addresses that carry their own proof, made from the server key (the
    /// one-click unsubscribe link in an e-mail, which a mail program posts to without any cookie).
    /// A forged request cannot know the address, so it needs no token.
    static let signedAddress = "csrf.signedAddress"

    static func isExempt(_ request: Request) -> Bool {
        request.url.path.hasPrefix("/api/") || request.route?.userInfo[checkedByHandler] != nil
            || request.route?.userInfo[signedAddress] != nil
    }
}

extension Request {
    /// The token to put in this page's forms, creating one for an anonymous visitor if needed.
    var csrfToken: String {
        if let token = storage[SignedInKey.self]?.csrfToken { return token }
        if let fresh = storage[CSRF.NewTokenKey.self] { return fresh }
        if let cookie = cookies[CSRF.cookieName]?.string, cookie.count == 43 { return cookie }
        let token = RandomToken.make()
        storage[CSRF.NewTokenKey.self] = token
        return token
    }

    /// Throws 403 unless `submitted` is this visitor's token.
    func verifyCSRF(submitted: String?) throws {
        guard let expected = expectedCSRFToken, !expected.isEmpty, let submitted,
            RandomToken.constantTimeEquals(submitted, expected)
        else {
            throw Abort(.forbidden, reason: t("This form has expired or did not come from Fieldhouse. Go back, reload the page and try again."))
        }
    }

    /// The token a state-changing request must match, without creating one.
    fileprivate var expectedCSRFToken: String? {
        if let token = storage[SignedInKey.self]?.csrfToken { return token }
        return cookies[CSRF.cookieName]?.string
    }
}

/// Checks the token on unsafe methods and hands out the anonymous token cookie when one was made.
struct CSRFMiddleware: AsyncMiddleware {
    let maxUploadBytes: Int

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if ![.GET, .HEAD, .OPTIONS].contains(request.method), !CSRF.isExempt(request) {
            try await verify(request)
        }
        let response = try await next.respond(to: request)
        if let fresh = request.storage[CSRF.NewTokenKey.self] {
            response.cookies[CSRF.cookieName] = HTTPCookies.Value(
                string: fresh, path: "/", isSecure: request.application.config.secureCookies,
                isHTTPOnly: true, sameSite: .lax
            )
        }
        return response
    }

    private func verify(_ request: Request) async throws {
        // Without a session or a token cookie no body can pass, so none is read: an anonymous
        // stranger cannot make the server buffer a 20 MB multipart body just to be refused.
        guard request.expectedCSRFToken != nil else { try request.verifyCSRF(submitted: nil); return }
        var submitted = request.headers.first(name: "X-CSRF-Token")
        if submitted == nil {
            // Routes collect their bodies after middleware runs, so collect here, within the same
            // limits: uploads may be as large as configured, ordinary forms 1 MB.
            let isUpload = request.headers.contentType?.type == "multipart"
            let limit = isUpload ? maxUploadBytes : 1024 * 1024
            if request.body.data == nil {
                _ = try await request.body.collect(max: limit).get()
            }
            submitted = try? request.content.get(String.self, at: CSRF.fieldName)
        }
        try request.verifyCSRF(submitted: submitted)
    }
}
