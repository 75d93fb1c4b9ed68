@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// Every page of the route table, read in Portuguese by someone allowed to see it: no English
/// word may be left outside what people wrote themselves (names, captions, team names).
@Suite struct PortuguesePagesTests {
    /// Brand, format and sport names that Portuguese writes as English does, and units.
    static let allowed: Set<String> = [
        "fieldhouse", "gpx", "fit", "tcx", "csv", "json", "ics", "strava", "garmin", "futsal", "badminton", "ultimate", "frisbee", "softbol",
        "bpm", "km", "mi", "kcal", "trimp", "email", "e-mail", "online", "ok", "app", "who", "openstreetmap", "zip", "url", "id", "svg", "png",
        "jpeg", "heic", "webp", "mph", "ft", "min", "max", "rpm", "spm", "tss", "acwr", "fieldhouse:", "md", "markdown", "html", "api", "u12",
        // The language switch names each language in itself.
        "english",
    ]

    /// English words the catalogue's English texts use and its Portuguese texts never do, plus
    /// the commonest English words: any of them on a Portuguese page is a text left untranslated.
    static func englishWords() throws -> Set<String> {
        let catalogue = try #require(try Catalogue.load(directory: LanguageTests.root.appendingPathComponent("Resources/Locales").path)[.ptPT])
        var english = Set<String>(), portuguese = Set<String>()
        for entry in catalogue.entries {
            for text in [entry.key] + (entry.plural.map { [$0] } ?? []) { english.formUnion(words(in: text)) }
            for text in entry.translations { portuguese.formUnion(words(in: text)) }
        }
        let common: Set<String> = [
            "the", "and", "you", "your", "with", "this", "that", "for", "from", "not", "are", "was", "will", "have", "has", "what", "when",
            "who", "which", "there", "here", "they", "them", "their", "been", "were", "would", "could", "should", "about", "after", "before",
            "into", "only", "other", "than", "then", "these", "those", "where", "while", "yet", "new", "all", "any", "can", "more", "most",
            "some", "such", "each", "every", "never", "none", "nothing", "save", "cancel", "delete", "edit", "back", "next", "previous",
            "search", "sign", "join", "leave", "send", "show", "hide", "open", "close", "today", "yesterday", "week", "month", "year",
        ]
        return english.union(common).subtracting(portuguese).subtracting(allowed)
    }

    static func words(in text: String) -> Set<String> {
        Set(
            text.lowercased().split { !$0.isLetter && $0 != "'" && $0 != "’" }.map(String.init).filter {
                $0.count >= 3 && !$0.contains("'") && !$0.contains("’")
            })
    }

    /// The words of a page a person reads: its text and the attributes read aloud or shown
    /// (`alt`, `title`, `aria-label`, `placeholder`), without scripts, styles, the values of
    /// form fields and links, commands (`<code>`), time zone names ("America/North_Dakota") and
    /// paths ("/learn/").
    static func readableText(_ html: String) -> String {
        var text = html
        for pattern in [
            #"(?s)<script\b.*?</script>"#, #"(?s)<style\b.*?</style>"#, #"(?s)<!--.*?-->"#, #"(?s)<textarea\b.*?</textarea>"#,
            #"(?s)<code\b.*?</code>"#, #"<option\b[^>]*>[^<]*/[^<]*</option>"#, #"(?<=[\s>])/[A-Za-z0-9_/.-]*"#,
        ] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        var spoken: [String] = []
        let attributes = try! NSRegularExpression(pattern: #"\b(?:alt|title|aria-label|placeholder)="([^"]*)""#)
        for match in attributes.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            if let range = Range(match.range(at: 1), in: text) { spoken.append(String(text[range])) }
        }
        text = text.replacingOccurrences(of: #"(?s)<[^>]*>"#, with: " ", options: .regularExpression)
        return ([text] + spoken).joined(separator: " ")
            .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
    }

    @Test func everyPageReadsInPortugueseWithNoEnglishLeft() async throws {
        try await withApp { app in
            // Everyone signs up from a Portuguese browser, so their setting is Portuguese from the start.
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let world = try await RouteMatrixTests.makeWorld(app)
            #expect(try await User.query(on: app.db).all().allSatisfy { $0.languageCode == "pt-PT" })
            let english = try Self.englishWords()
            // What people wrote (names, captions, places, messages) is theirs, in whatever language.
            // Only values a person typed: the app's own texts (notifications, e-mails, jobs) and its
            // lower-case codes ("private", "running") are not, so an English one still shows up.
            let field = try NSRegularExpression(pattern: #"(?:^| )[a-z_]+=(.*?)(?= [a-z_]+=|$)"#)
            var userContent: [String] = []
            for (table, rows) in try await app.dump(except: ["notifications", "outbox_messages", "jobs"]) where !table.hasPrefix("_") {
                for row in rows {
                    for match in field.matches(in: row, range: NSRange(row.startIndex..., in: row)) {
                        guard let range = Range(match.range(at: 1), in: row) else { continue }
                        let value = row[range]
                        if value.contains(" ") || value.contains(where: \.isUppercase) { userContent.append(String(value)) }
                    }
                }
            }
            let written = Self.words(in: userContent.joined(separator: " "))

            var checked = 0
            let people = Dictionary(world.people.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
            let objectReaders = Dictionary(
                RouteMatrixTests.objectPaths(world).map { ($0.path, $0.allowed.sorted().first ?? "ana") }, uniquingKeysWith: { first, _ in first })
            var paths: [(String, String, Browser)] = []
            for route in Set(app.app.routes.all.filter { $0.method == .GET }.map(RouteInventoryTests.name)).sorted() {
                let pattern = String(route.split(separator: " ", maxSplits: 1)[1])
                switch RouteMatrixTests.classify(route) {
                case .anyone:
                    paths.append((route, RouteMatrixTests.fill(pattern, world: world), try #require(people["anonymous"])))
                case .signedIn:
                    let who = pattern.hasPrefix("/admin") ? "admin" : pattern.hasPrefix("/coach") ? "coach" : pattern.hasPrefix("/learn") ? "editor" : "ana"
                    paths.append((route, RouteMatrixTests.fill(pattern, world: world), try #require(people[who])))
                case .object:
                    for (objectRoute, path, _) in RouteMatrixTests.objectPaths(world) where objectRoute == route {
                        paths.append((route, path, try #require(people[objectReaders[path] ?? "ana"])))
                    }
                case .device, .operations:
                    continue
                }
            }
            // A signed-out visitor's language comes from the browser.
            try #require(people["anonymous"]).extraHeaders.replaceOrAdd(name: .acceptLanguage, value: "pt-PT")
            for (route, path, browser) in paths {
                let page = try await browser.get(path)
                guard page.status == .ok, page.headers.contentType?.subType == "html" else { continue }
                checked += 1
                #expect(page.contains(#"<html lang="pt-PT">"#), "\(route) at \(path) is not marked Portuguese")
                let left = Self.words(in: Self.readableText(page.body)).intersection(english).subtracting(written)
                #expect(left.isEmpty, "\(route) at \(path) still says: \(left.sorted().joined(separator: ", "))")
            }
            #expect(checked > 60, "only \(checked) pages were read")
        }
    }
}
