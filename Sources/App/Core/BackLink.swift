import Foundation
import Vapor

/// The "← …" link at the top of a page: back to where the person came from, when that is one of
/// the pages that lead here, and otherwise to the page's own section. A coach who opened a
/// workout from an athlete's training goes back there; a player who found a game through a search
/// goes back to those results, not to their own games.
struct BackLink: Encodable, Sendable, Equatable {
    let url: String
    let label: String

    init(_ url: SiteURL, _ label: String) {
        self.url = url.path
        self.label = label
    }

    private init(url: String, label: String) {
        self.url = url
        self.label = label
    }

    /// `origins` are the pages that lead here, each with the words its link reads; the first
    /// whose path is the page the browser came from wins, with that page's query kept (the search's
    /// terms, the list's page), so going back finds it as it was left. The browser names that page
    /// in `Referer` (the site sends `Referrer-Policy: same-origin`, so only for its own pages), and
    /// only a page of this same host counts.
    static func back(on req: Request, to fallback: BackLink, from origins: [BackLink]) -> BackLink {
        guard let came = cameFrom(req), let origin = origins.first(where: { $0.url == came.path }) else { return fallback }
        guard let query = came.query else { return origin }
        return BackLink(url: came.path + "?" + query, label: origin.label)
    }

    /// Whether the browser came from `link`'s page: for an origin a page offers only after asking
    /// whether the viewer may see it (someone's profile), so the question is asked only then.
    static func came(from link: BackLink, on req: Request) -> Bool {
        cameFrom(req)?.path == link.url
    }

    /// The path and query of the page of this host the browser came from.
    private static func cameFrom(_ req: Request) -> (path: String, query: String?)? {
        guard let referer = req.headers.first(name: .referer), referer.utf8.count <= 2_000,
            let came = URLComponents(string: referer), let host = came.host,
            let ours = req.headers.first(name: .host)?.split(separator: ":").first, host.lowercased() == ours.lowercased()
        else { return nil }
        let query = came.percentEncodedQuery.flatMap { query in
            !query.isEmpty && query.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) ? query : nil
        }
        return (came.percentEncodedPath, query)
    }
}
