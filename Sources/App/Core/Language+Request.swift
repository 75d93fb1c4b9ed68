@_exported import FieldhouseKit
import Vapor

extension Request {
    /// The language a page is written in: the signed-in person's choice, else the visitor's
    /// choice from the footer (a cookie), else the browser's `Accept-Language`, else English.
    var language: Language {
        if let decided = storage[LanguageKey.self] { return decided }
        if let chosen = storage[SignedInKey.self]?.person.language { return chosen }
        if let cookie = cookies[Language.cookieName]?.string, let chosen = Language(rawValue: cookie) { return chosen }
        if let header = headers.first(name: .acceptLanguage), let wanted = Language.preferred(acceptLanguage: header) { return wanted }
        return .en
    }
}

private struct LanguageKey: StorageKey {
    typealias Value = Language
}

extension Language {
    /// The visitor's choice from the footer's language switch.
    static let cookieName = "lang"
}

/// Writes every response for its reader: in the request's language (`t`, `tn` and `Format` read
/// `Language.current`) and, for a signed-in person, in their clock (`ClockStyle.current`). Used
/// twice: outside the error pages (the cookie and the browser decide) and again inside the session
/// middleware, where the signed-in person's settings decide.
struct LanguageMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // Decided once here (each template tag asks again), and again by the inner use once the
        // session has said who is signed in.
        request.storage[LanguageKey.self] = nil
        let language = request.language
        request.storage[LanguageKey.self] = language
        let reader = Reader(language: language, clock: request.storage[SignedInKey.self]?.person.clock ?? .twentyFourHour)
        let response = try await reader.writeAsync { try await next.respond(to: request) }
        // A page differs by language: caches between here and the browser must keep them apart
        // (a stylesheet does not).
        if response.headers.contentType?.subType == "html",
            !response.headers[.vary].joined(separator: ",").lowercased().contains("accept-language")
        {
            response.headers.add(name: .vary, value: "Accept-Language, Cookie")
        }
        return response
    }
}
