import Vapor

extension User {
    /// The language chosen in the settings; nil (or one this version no longer has) follows the browser.
    var language: Language? { languageCode.flatMap(Language.init(rawValue:)) }
}

extension SiteURL {
    /// The footer's language switch.
    static func language(_ language: Language) -> SiteURL { SiteURL(AccountPath.language, language.rawValue) }
}

/// The language switch in the footer, for visitors: remembers the choice in a cookie for a year
/// and goes back to the page it was clicked on. Signed-in people choose under Settings → Profile,
/// which also decides their notifications and e-mails.
struct LanguageController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.language, use: choose)
    }

    func choose(req: Request) async throws -> Response {
        guard let language = req.parameters.get("code").flatMap(Language.init(rawValue:)) else {
            throw Abort(.notFound, reason: t("Fieldhouse does not speak that language yet."))
        }
        // Only a path on this site: the switch must not become a way to send people elsewhere.
        let back = SiteURL.stored(req.query[String.self, at: "back"] ?? "/")
        let response = req.redirect(to: back.path, redirectType: .normal)
        response.cookies[Language.cookieName] = HTTPCookies.Value(
            string: language.rawValue, maxAge: 365 * 86_400, path: "/", isSecure: req.application.config.secureCookies, isHTTPOnly: true,
            sameSite: .lax)
        return response
    }
}
