import Vapor

/// One-time messages shown on the next page ("Profile saved"), carried in a short-lived cookie so
/// that showing them never costs a database write.
struct Flash: Codable, Sendable {
    enum Kind: String, Codable, Sendable { case success, error, info }
    let kind: Kind
    let message: String
    /// Where the message points on (the settings it names); only a path on this site is kept.
    var link: Link?

    struct Link: Codable, Sendable {
        let text: String
        let path: String
    }

    static let cookieName = "fh_flash"
    struct PendingKey: StorageKey { typealias Value = Flash }
    struct ConsumedKey: StorageKey { typealias Value = Bool }
}

extension Request {
    /// Shows `message` on the next page this browser loads.
    func flash(_ kind: Flash.Kind, _ message: String, link: (text: String, url: SiteURL)? = nil) {
        storage[Flash.PendingKey.self] = Flash(kind: kind, message: message, link: link.map { .init(text: $0.text, path: $0.url.path) })
    }

    /// The message left by the previous request, if any; reading it clears it.
    func takeFlash() -> Flash? {
        guard let raw = cookies[Flash.cookieName]?.string,
            let data = Data(
                base64Encoded: raw.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/").padding(
                    toLength: (raw.count + 3) / 4 * 4, withPad: "=", startingAt: 0)),
            var flash = try? JSONDecoder().decode(Flash.self, from: data)
        else { return nil }
        storage[Flash.ConsumedKey.self] = true
        // The cookie comes back from the browser: a link elsewhere than this site is dropped.
        // Printable ASCII only: a browser drops tabs and newlines, so "/\t/elsewhere" would lead off site.
        if let path = flash.link?.path,
            !(path.utf8.count <= 2_000 && path.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) && path.hasPrefix("/")
                && !path.hasPrefix("//") && !path.contains("\\"))
        {
            flash.link = nil
        }
        return flash
    }
}

struct FlashMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        if let pending = request.storage[Flash.PendingKey.self],
            let data = try? JSONEncoder().encode(pending)
        {
            let encoded = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            response.cookies[Flash.cookieName] = HTTPCookies.Value(
                string: encoded, maxAge: 300, path: "/", isSecure: request.application.config.secureCookies,
                isHTTPOnly: true, sameSite: .lax
            )
        } else if request.storage[Flash.ConsumedKey.self] == true {
            response.cookies[Flash.cookieName] = .expiredAtRoot
        }
        return response
    }
}
