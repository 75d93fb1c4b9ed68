@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// English and European Portuguese: the catalogue covers every text the code and templates use,
/// each page speaks the language its reader chose (setting, footer switch, browser), and numbers,
/// dates and units follow it.
@Suite("Languages: the catalogue, choosing a language, formats")
struct LanguageTests {
    static var root: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    /// The keys the code and the templates use: `t("…")`, `tn("…", "…")`, `#t("…")`, `#tn("…", "…")`.
    struct UsedKey: Hashable {
        let key: String
        let plural: String?
    }

    static func usedKeys() throws -> [UsedKey: Set<String>] {
        var used: [UsedKey: Set<String>] = [:]
        let swiftString = #""((?:[^"\\\n]|\\.)*)""#
        let patterns: [(String, NSRegularExpression)] = try [
            ("leaf", NSRegularExpression(pattern: #"#tn\(\s*"([^"]*)"\s*,\s*"([^"]*)""#)),
            ("leaf", NSRegularExpression(pattern: #"#t\(\s*"([^"]*)""#)),
            ("swift", NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])tn\(\s*"# + swiftString + #"\s*,\s*"# + swiftString)),
            ("swift", NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])t\(\s*"# + swiftString)),
        ]
        for folder in ["Views", "Sources"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "leaf" || file.pathExtension == "swift" {
                // Comments may show how to call t(...) without being texts anyone reads.
                let text = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String($0) }.joined(separator: "\n")
                let place = file.path.replacingOccurrences(of: root.path + "/", with: "")
                for (kind, regex) in patterns where kind == file.pathExtension {
                    for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                        let groups = (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
                        let unescaped = groups.map { kind == "swift" ? unescapeSwift($0) : $0 }
                        if unescaped.contains(where: { $0.contains("\\(") }) {
                            Issue.record("\(place): a key with string interpolation cannot be translated: \(groups[0])")
                        }
                        used[UsedKey(key: unescaped[0], plural: unescaped.count > 1 ? unescaped[1] : nil), default: []].insert(place)
                    }
                }
            }
        }
        return used
    }

    static func unescapeSwift(_ text: String) -> String {
        text.replacingOccurrences(of: #"\\"#, with: "\u{0}").replacingOccurrences(of: #"\""#, with: "\"")
            .replacingOccurrences(of: #"\n"#, with: "\n").replacingOccurrences(of: "\u{0}", with: "\\")
    }

    @Test func everyKeyInCodeAndTemplatesIsTranslatedAndEveryTranslationIsUsed() throws {
        let catalogues = try Catalogue.load(directory: Self.root.appendingPathComponent("Resources/Locales").path)
        let portuguese = try #require(catalogues[.ptPT])
        let used = try Self.usedKeys()
        #expect(used.count > 1_000, "the key scan found only \(used.count) keys")
        // One translation per key, wherever it is written.
        var seen: [UsedKey: Catalogue.Entry] = [:]
        for entry in portuguese.entries {
            let key = UsedKey(key: entry.key, plural: entry.plural)
            if let earlier = seen[key], earlier.translations != entry.translations {
                Issue.record("\(entry.place) translates “\(entry.key)” differently from \(earlier.place)")
            }
            seen[key] = entry
        }
        for (key, places) in used.sorted(by: { $0.key.key < $1.key.key }) {
            guard let entry = seen[key] else {
                Issue.record("no Portuguese for “\(key.key)”\(key.plural.map { " / “\($0)”" } ?? "") (used in \(places.sorted().joined(separator: ", ")))")
                continue
            }
            let wanted = Set(Catalogue.placeholders(key.plural ?? key.key))
            for (form, text) in entry.translations.enumerated() {
                if text.isEmpty { Issue.record("\(entry.place): an empty translation of “\(key.key)”") }
                let given = Set(Catalogue.placeholders(text))
                // The singular may say "um treino" where English says "{count} workout".
                let required = key.plural != nil && form == 0 ? wanted.subtracting(["count"]) : wanted
                if !required.isSubset(of: given) || !given.isSubset(of: wanted) {
                    Issue.record("\(entry.place): “\(text)” has placeholders \(given.sorted()), “\(key.key)” has \(wanted.sorted())")
                }
            }
        }
        for (key, entry) in seen where used[key] == nil {
            Issue.record("\(entry.place): “\(key.key)” is translated but nothing uses it")
        }
    }

    /// `#t` escapes `&<>"` but leaves apostrophes: safe only while no attribute is quoted with `'`.
    @Test func noTemplateQuotesAnAttributeWithApostrophes() throws {
        let views = Self.root.appendingPathComponent("Views")
        let files = FileManager.default.enumerator(at: views, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let quoted = try NSRegularExpression(pattern: #"<[a-zA-Z][^>]*\s[a-zA-Z-]+\s*=\s*'"#)
        #expect(files.filter { $0.pathExtension == "leaf" }.count >= 90, "found only \(files.count) files in \(views.path)")
        for file in files where file.pathExtension == "leaf" {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(quoted.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil, "\(file.lastPathComponent) quotes an attribute with '")
        }
    }

    @Test func aCatalogueThatDoesNotParseIsRefusedWithItsLine() {
        #expect(throws: Catalogue.Failure.self) { try Catalogue.parse("msgid \"Save\"\nmsgstr Guardar\n", file: "x.po") }
        #expect(throws: Catalogue.Failure.self) { try Catalogue.parse("msgid \"Save\"\nmsgstr \"a\"\nmsgstr \"b\"\n", file: "x.po") }
        let entries = try? Catalogue.parse(
            "# a comment\nmsgid \"\"\nmsgstr \"Language: pt-PT\\n\"\n\nmsgid \"Say \\\"hi\\\"\"\nmsgstr \"\"\n\"Diz \\\"olá\\\"\"\n", file: "x.po")
        #expect(entries?.map(\.key) == ["Say \"hi\""] && entries?.first?.translations == ["Diz \"olá\""])
    }

    @Test func placeholdersFollowTheirNamesWhateverOrderATranslationPutsThemIn() throws {
        // The catalogue is global and every test shares it: the real one with two keys of this
        // test's own added, so pages other tests read meanwhile stay in Portuguese.
        let real = try Catalogue.load(directory: Self.root.appendingPathComponent("Resources/Locales").path)
        var catalogues = real
        catalogues[.ptPT] = Catalogue(
            entries: (real[.ptPT]?.entries ?? []) + [
                .init(key: "{name} joined {team} (test)", plural: nil, translations: ["{team} tem agora {name} (teste)"], place: "test"),
                .init(key: "{count} test lap", plural: "{count} test laps", translations: ["uma volta", "{count} voltas"], place: "test"),
            ])
        Words.install(catalogues)
        defer { Words.install(real) }
        #expect(t("{name} joined {team} (test)", "Ana", "Lions") == "Ana joined Lions (test)")
        #expect(Language.$current.withValue(.ptPT) { t("{name} joined {team} (test)", "Ana", "Lions") } == "Lions tem agora Ana (teste)")
        #expect(Language.$current.withValue(.ptPT) { tn("{count} test lap", "{count} test laps", 1) } == "uma volta")
        #expect(Language.$current.withValue(.ptPT) { tn("{count} test lap", "{count} test laps", 0) } == "0 voltas")
        #expect(tn("{count} test lap", "{count} test laps", 2) == "2 test laps")
        #expect(Language.$current.withValue(.ptPT) { t("Not in the catalogue") } == "Not in the catalogue")
    }

    @Test func theBrowsersLanguageIsReadWithItsPreferences() {
        #expect(Language.preferred(acceptLanguage: "pt-PT,pt;q=0.9,en;q=0.8") == .ptPT)
        #expect(Language.preferred(acceptLanguage: "pt-BR") == .ptPT)
        #expect(Language.preferred(acceptLanguage: "de-DE, en;q=0.5, pt;q=0.4") == .en)
        #expect(Language.preferred(acceptLanguage: "en;q=0.2, pt;q=0.9") == .ptPT)
        #expect(Language.preferred(acceptLanguage: "pt;q=0, en") == .en)
        #expect(Language.preferred(acceptLanguage: "de, fr") == nil)
        #expect(Language.preferred(acceptLanguage: String(repeating: "x;q=abc,", count: 10_000)) == nil)
    }

    @Test func numbersDatesAndUnitsFollowTheLanguage() {
        let lisbon = Format(imperial: false, zone: TimeZone(identifier: "Europe/Lisbon")!)
        let saturday = Date(timeIntervalSince1970: 1_795_246_200) // Sat 21 Nov 2026, 07:30 in Lisbon (UTC+0)
        #expect(lisbon.distance(12_345) == "12.35 km" && lisbon.when(saturday) == "Sat 21 Nov 2026, 07:30")
        Language.$current.withValue(.ptPT) {
            #expect(lisbon.distance(12_345) == "12,35 km")
            #expect(lisbon.speed(3.0) == "10,8 km/h")
            #expect(lisbon.when(saturday) == "sáb 21 nov 2026, 07:30")
            #expect(12_345.grouped == "12\u{00A0}345" && 2_345.grouped == "2345")
            #expect(Format.fileSize(2_400_000) == "2,4 MB")
        }
        #expect(12_345.grouped == "12,345")
    }

    @Test func aVisitorGetsTheBrowsersLanguageThenTheFootersChoice() async throws {
        try await withApp { app in
            let visitor = app.browser()
            let english = try await visitor.get("/login")
            #expect(english.contains(#"<html lang="en">"#) && english.contains(">Sign in<"))
            visitor.extraHeaders.replaceOrAdd(name: .acceptLanguage, value: "pt-PT,pt;q=0.9,en;q=0.5")
            let portuguese = try await visitor.get("/login")
            #expect(portuguese.contains(#"<html lang="pt-PT">"#) && portuguese.contains(">Entrar<") && !portuguese.contains(">Sign in<"))
            #expect(portuguese.headers[.vary].joined(separator: ",").contains("Accept-Language"))
            // The footer offers English; choosing it is remembered over the browser's wish, and
            // the switch only ever goes back to a page of this site.
            #expect(portuguese.contains(#"href="/language/en?back=%2Flogin""#))
            let chosen = try await visitor.get("/language/en?back=%2Flogin")
            #expect(chosen.status == .seeOther && chosen.location == "/login")
            #expect(try await visitor.get("/login").contains(#"<html lang="en">"#))
            #expect(try await visitor.get("/language/pt-PT?back=//evil.example/x").location == "/")
            #expect(try await visitor.get("/language/pt-PT?back=https://evil.example/").location == "/")
            #expect(try await visitor.get("/language/xx").status == .notFound)
            let missing = try await visitor.get("/no-such-page")
            #expect(missing.status == .notFound && missing.contains(#"<html lang="pt-PT">"#))
        }
    }

    @Test func aPersonsSettingDecidesTheirPagesAndTheNewsSentToThem() async throws {
        try await withApp { app in
            let ines = app.browser()
            try await ines.signUp("ines_p", name: "Inês Pereira")
            try await User.query(on: app.db).filter(\.$username == "ines_p").set(\.$languageCode, to: "pt-PT").update()
            // Her setting beats the English browser she borrowed.
            ines.extraHeaders.replaceOrAdd(name: .acceptLanguage, value: "en-GB")
            let home = try await ines.get("/")
            #expect(home.contains(#"<html lang="pt-PT">"#) && home.contains("Terminar sessão"))
            #expect(!home.contains("language-switch"), "signed-in people choose under Settings")
            // News for her is written in Portuguese even when an English speaker causes it, and
            // news for him in English.
            let sam = app.browser()
            try await sam.signUp("sam_e", name: "Sam English")
            try await ines.befriend(sam, "sam_e", me: "ines_p")
            try await sam.sendChallenge(to: ["ines_p"], caption: "Bridge at dawn")
            try await ines.sendChallenge(to: ["sam_e"], caption: "Ponte ao amanhecer")
            let inesID = try #require(try await User.query(on: app.db).filter(\.$username == "ines_p").first()?.requireID())
            let samID = try #require(try await User.query(on: app.db).filter(\.$username == "sam_e").first()?.requireID())
            let hers = try await Notification.query(on: app.db).filter(\.$recipient.$id == inesID).filter(\.$kind == "challenge_received").all()
            let his = try await Notification.query(on: app.db).filter(\.$recipient.$id == samID).filter(\.$kind == "challenge_received").all()
            #expect(hers.map(\.text) == ["Sam English desafiou-te: Bridge at dawn"])
            #expect(his.map(\.text) == ["Inês Pereira challenged you: Ponte ao amanhecer"])
        }
    }

    /// What a request writes inside a database transaction (Fluent runs it in a task of its own)
    /// is in the request's language too: an unnamed workout imported by a Portuguese reader gets a
    /// Portuguese name.
    @Test func wordsWrittenInsideATransactionKeepTheLanguage() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT"
            let ines = app.browser()
            try await ines.signUp("ines_t", name: "Inês Teixeira")
            let page = try await ines.upload(
                "/workouts/import", field: "files", filename: "treino.fit", contentType: "application/octet-stream",
                data: try fixtureFile("fit/garmin-fenix-5-run.fit"), csrfFrom: "/workouts/import")
            #expect(page.status == .ok)
            let names = try await Workout.query(on: app.db).all().map(\.name)
            #expect(names.count == 1 && names.allSatisfy { $0.hasPrefix("Corrida") }, "\(names)")
        }
    }
}
