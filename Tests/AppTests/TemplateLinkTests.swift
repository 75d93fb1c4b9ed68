@testable import App
import Foundation
import Testing
import Vapor

/// Templates link to the site's own pages through `#url(...)`, which names a registered route, so a
/// renamed or removed route cannot leave a dead link in a template that no test happens to render.
@Suite struct TemplateLinkTests {
    struct Template {
        let name: String
        let text: String
    }

    static var templates: [Template] {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Views")
            let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".leaf") } ?? []
            return try files.sorted().map { Template(name: $0, text: try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
        }
    }

    /// `#url("/teams/:slug", team.slug)` → the route and the number of values after it.
    static func links(in text: String) -> [(route: String, values: Int)] {
        text.matches(of: /#url\("([^"]*)"((?:, [^,)]+)*)\)/).map { match in
            (String(match.output.1), match.output.2.split(separator: ",").count)
        }
    }

    @Test func everyLinkNamesARouteTheAppHasWithAValueForEachParameter() async throws {
        try await withApp { app in
            let tag = URLTag(routes: app.app.routes.all)
            var checked = 0
            for template in try Self.templates {
                for link in Self.links(in: template.text) {
                    checked += 1
                    #expect(tag.routes.contains(link.route), "\(template.name) links to \(link.route), which is not a route")
                    let parameters = link.route.split(separator: "/").filter { $0.hasPrefix(":") }.count
                    let query = link.values - parameters
                    #expect(query >= 0 && query.isMultiple(of: 2), "\(template.name): \(link.route) takes \(parameters) values and name-value pairs")
                }
            }
            #expect(checked > 250)
        }
    }

    @Test func noTemplateWritesASitePathByHand() throws {
        for template in try Self.templates {
            let handWritten = template.text.matches(of: /(?:href|action|src|formaction|data-[a-z-]+)="(\/[^"]*)"/)
                .map { String($0.output.1) }
                .filter { !($0.hasPrefix("/css/") || $0.hasPrefix("/js/") || $0.hasPrefix("/img/") || $0 == "/favicon.ico") }
            #expect(handWritten.isEmpty, "\(template.name) writes \(handWritten) by hand: use #url(...) or a URL from the page context")
        }
    }

    /// The tag writes the path `SiteURL` would: ids lower-case, values escaped, empty query values left out.
    @Test func linksOnAPageAreWrittenLikeSiteURL() async throws {
        try await withApp { app in
            let ana = app.browser(); try await ana.signUp("ana")
            let page = try await ana.get("/teams")
            #expect(page.status == .ok)
            #expect(page.contains(#"href="/find?what=teams""#) && page.contains(#"href="/teams/new""#))
            let profile = try await ana.get("/u/ana")
            #expect(profile.status == .ok && profile.contains(#"href="/u/ana/followers""#))
        }
    }
}
