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
            // Every test over the templates would pass over none: a wrong folder must fail them instead.
            try #require(files.count >= 90, "found \(files.count) templates in \(root.path)")
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
        let templates = try Self.templates
        #expect(templates.contains { $0.name == "base.leaf" } && templates.count >= 90)
        for template in templates {
            let handWritten = template.text.matches(of: /(?:href|action|src|formaction|data-[a-z-]+)="(\/[^"]*)"/)
                .map { String($0.output.1) }
                .filter { !($0.hasPrefix("/css/") || $0.hasPrefix("/js/") || $0.hasPrefix("/img/") || $0 == "/favicon.svg") }
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

/// The conventions every template keeps, checked on the templates themselves so a new page cannot
/// quietly break them.
@Suite struct TemplateConventionTests {
    /// A field's message is announced with the field: `<p class="error" id="x-error">` and
    /// `aria-describedby="... x-error"` on the control or its fieldset.
    @Test func everyFieldErrorIsLinkedToItsField() throws {
        var checked = 0
        for template in try TemplateLinkTests.templates {
            let messages = template.text.matches(of: /<p class="error"( id="([a-z_]+)-error")?>/)
            checked += messages.count
            for message in messages {
                guard let field = message.output.2 else {
                    Issue.record("\(template.name) has a field error without an id")
                    continue
                }
                let linked = template.text.matches(of: /aria-describedby="([^"]*)"/).contains { $0.output.1.contains("\(field)-error") }
                #expect(linked, "\(template.name): no control or fieldset points at \(field)-error")
            }
        }
        #expect(checked > 50, "found only \(checked) field errors in the templates")
    }

    /// Every form that changes something posts the CSRF token, through the one partial.
    @Test func everyPostedFormCarriesTheCSRFToken() throws {
        var forms = 0
        for template in try TemplateLinkTests.templates {
            for form in template.text.matches(of: /<form[^>]*method="post"[^>]*>((?:.|\n)*?)<\/form>/) {
                forms += 1
                #expect(form.output.1.contains(#"#extend("partials/csrf")"#), "\(template.name) has a form without the CSRF token")
            }
            #expect(!template.text.contains(#"name="csrf""#) || template.name == "partials/csrf.leaf", "\(template.name) writes the CSRF field by hand")
        }
        #expect(forms > 80)
    }
}
