import Foundation
import Leaf
import Vapor

/// `#url("/teams/:slug/requests/:id/approve", team.slug, request.id)`: how a template links to one
/// of the site's own pages. A template names the route as it is registered and gives its parameters
/// in order, then any query as name and value in turn (`#url("/find", "what", "teams")`); the tag refuses a route the app does not have or a wrong number of parameters (so a
/// renamed route fails the page's tests instead of leaving a dead link), escapes every value and
/// writes ids lower-case (in the path and the query), through the same `SiteURL` that Swift code uses.
///
/// Swift code builds paths with the named constructors on `SiteURL`; templates link with this tag
/// or with a URL their page context carries. Nothing writes `href="/..."` by hand
/// (`TemplateLinkTests` checks both).
struct URLTag: LeafTag {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Every GET and POST route as written in `docs/ROUTES.md`: "/teams/:slug".
    let routes: Set<String>

    init(routes: [Vapor.Route]) {
        self.routes = Set(routes.filter { $0.method == .GET || $0.method == .POST }.map { Self.pattern(of: $0) })
    }

    static func pattern(of route: Vapor.Route) -> String {
        "/" + route.path.map(\.description).joined(separator: "/")
    }

    func render(_ ctx: LeafContext) throws -> LeafData {
        guard let pattern = ctx.parameters.first?.string else { throw Failure(description: "#url needs a route, like \"/teams/:slug\"") }
        guard routes.contains(pattern) else { throw Failure(description: "#url: the app has no route \(pattern)") }
        var values = ctx.parameters.dropFirst()
        let segments = try pattern.split(separator: "/").map { part -> String in
            guard part.hasPrefix(":") else { return String(part) }
            guard let value = values.popFirst(), !value.isNil, let text = value.string, !text.isEmpty else {
                throw Failure(description: "#url: \(pattern) has no value for \(part)")
            }
            return UUID(uuidString: text).map(SiteURL.id) ?? text
        }
        // What is left is the query, as name and value in turn; an empty or missing value is left out.
        guard values.count.isMultiple(of: 2) else { throw Failure(description: "#url: \(pattern) has a query name without a value") }
        var query: [(String, String?)] = []
        while let name = values.popFirst(), let value = values.popFirst() {
            guard let name = name.string, !name.isEmpty else { throw Failure(description: "#url: \(pattern) has a query name that is not a word") }
            query.append((name, value.isNil ? nil : value.string.map { UUID(uuidString: $0).map(SiteURL.id) ?? $0 }))
        }
        return .string(SiteURL(segments: segments).with(query))
    }
}
