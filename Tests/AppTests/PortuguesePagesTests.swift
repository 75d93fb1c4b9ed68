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
        // Days and months are written by Format from WallClock's names, not the catalogue ("set", "out").
        let names = Language.$current.withValue(.ptPT) { WallClock.shortMonths + WallClock.shortWeekdays + WallClock.months + WallClock.weekdays }
        portuguese.formUnion(words(in: names.joined(separator: " ")))
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
            #"(?s)<code\b.*?</code>"#,
            // Text marked as English on purpose (the device API's reference, written in its document).
            #"(?s)<(section|div|span)\b[^>]*\blang="en"[^>]*>.*?</\1>"#, #"<option\b[^>]*>[^<]*/[^<]*</option>"#, #"(?<=[\s>])/[A-Za-z0-9_/.-]*"#,
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
            let everyone = try await User.query(on: app.db).all()
            #expect(everyone.count >= 5 && everyone.allSatisfy { $0.languageCode == "pt-PT" })
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
                    // An event stream is not a page (and never ends): its words are the live page's.
                    for (objectRoute, path, _) in RouteMatrixTests.objectPaths(world) where objectRoute == route && !path.hasSuffix("/events") {
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

    /// "yyyy-MM-dd" of an instant in UTC, as the workout form takes a day.
    static func formDay(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// A day as Portuguese writes it everywhere in the app ("sex 27 nov"), worked out here from the
    /// calendar rather than from the app's own formatter.
    static func portugueseDay(_ date: Date) throws -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let parts = calendar.dateComponents([.weekday, .day, .month], from: date)
        let weekdays = ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"]
        let months = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"]
        return "\(weekdays[try #require(parts.weekday) - 1]) \(try #require(parts.day)) \(months[try #require(parts.month) - 1])"
    }

    /// A Portuguese reader who trains 2 h 6 min in a day sees "2,1 h" over that day's column.
    @Test func theStatisticsChartWritesHoursWithADecimalComma() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let ines = app.browser()
            try await ines.signUp("ines_s", name: "Inês Santos")
            let made = try await ines.post(
                "/workouts/new", [("sport", "running"), ("day", Self.formDay(app.clock.now)), ("time", "07:00"), ("minutes", "126"), ("distance", "20")],
                csrfFrom: "/workouts/new")
            #expect(made.status == .seeOther)
            let stats = try await ines.get("/stats?period=day")
            #expect(stats.status == .ok && stats.contains(#"<html lang="pt-PT">"#))
            #expect(stats.contains(">2,1 h<"), "the day's column is labelled in Portuguese")
            #expect(!stats.contains("2.1 h"))
        }
    }

    /// A goal reached is announced with its target in the reader's numbers: "5,0 km".
    @Test func aGoalNotificationWritesTheDistanceWithADecimalComma() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let ines = app.browser()
            try await ines.signUp("ines_g", name: "Inês Gomes")
            #expect(try await ines.post("/goals", [("period", "day"), ("metric", "distance"), ("target", "5")], csrfFrom: "/goals").status == .seeOther)
            let made = try await ines.post(
                "/workouts/new", [("sport", "running"), ("day", Self.formDay(app.clock.now)), ("time", "07:00"), ("minutes", "30"), ("distance", "6")],
                csrfFrom: "/workouts/new")
            #expect(made.status == .seeOther)
            let notes = try await ines.get("/notifications")
            #expect(notes.contains("Atingiste o teu objetivo diário de 5,0 km. Muito bem!"), "\(Self.readableText(notes.body).prefix(2000))")
            #expect(!notes.contains("5.0 km"))
        }
    }

    /// The splits table's time is how long each split took: "Tempo", not the time of day ("Hora").
    @Test func theSplitsHeaderSaysTempo() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let ines = app.browser()
            try await ines.signUp("ines_p", name: "Inês Pinto")
            let imported = try await ines.upload(
                "/workouts/import", field: "files", filename: "treino.fit", contentType: "application/octet-stream",
                data: try fixtureFile("fit/garmin-fenix-5-run.fit"), csrfFrom: "/workouts/import")
            #expect(imported.status == .ok)
            let id = try #require(try await Workout.query(on: app.db).first()?.requireID()).uuidString.lowercased()
            let page = try await ines.get("/workouts/\(id)")
            let header = try #require(page.firstMatch(#"(?s)<table class="standings splits"><thead>(.*?)</thead>"#))
            #expect(
                header == #"<tr><th scope="col">km</th><th scope="col">Tempo</th><th scope="col">Ritmo</th><th scope="col">FC média</th></tr>"#, "\(header)")
            #expect(!header.contains("Hora"))
            // "Time" of day keeps its word: a reminder's time.
            #expect(try await ines.get("/reminders").contains(">Hora</label>"))
        }
    }

    /// Counts agree with their number: "1 inscrito", "4 inscritos" (it said "4 Inscrito").
    @Test func aGamesCountsArePluralised() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let oda = app.browser()
            try await oda.signUp("oda_p", name: "Oda Pires")
            let url = try await oda.createPickup(capacity: 10)
            var joiners: [Browser] = []
            for index in 1...4 {
                let browser = app.browser()
                try await browser.signUp("jogador\(index)", name: "Jogador \(index)")
                joiners.append(browser)
            }
            func joined() async throws -> Int { try #require(try await Game.query(on: app.db).first()).joinedCount }
            #expect(try await joiners[0].post("\(url)/join", [], csrfFrom: url).status == .seeOther)
            let one = try await joined()
            var page = try await oda.get(url)
            #expect(
                page.contains("<strong>\(one)</strong> \(one == 1 ? "inscrito" : "inscritos")</li>"),
                "\(page.firstMatch(#"(?s)(<ul class="counts">.*?</ul>)"#) ?? "")")
            for browser in joiners.dropFirst() { #expect(try await browser.post("\(url)/join", [], csrfFrom: url).status == .seeOther) }
            let many = try await joined()
            #expect(many >= 4)
            page = try await oda.get(url)
            #expect(page.contains("<strong>\(many)</strong> inscritos</li>"), "\(page.firstMatch(#"(?s)(<ul class="counts">.*?</ul>)"#) ?? "")")
            #expect(!page.contains("\(many)</strong> Inscrito<"))
        }
    }

    /// One way to write a day in Portuguese, lower case and without a comma after the weekday
    /// ("sex 27 nov"): a game in the list of games and a workout's start read alike.
    @Test func aDayIsWrittenOneWay() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let oda = app.browser()
            try await oda.signUp("oda_d", name: "Oda Dias")
            let gameDay = app.clock.now.addingTimeInterval(3 * 86_400)
            _ = try await oda.createPickup(days: 3)
            let games = try await oda.get("/games")
            let expected = try Self.portugueseDay(gameDay)
            #expect(games.contains(expected + " · "), "\(Self.readableText(games.body).prefix(3000))")

            let made = try await oda.post(
                "/workouts/new", [("sport", "running"), ("day", Self.formDay(app.clock.now)), ("time", "07:00"), ("minutes", "30"), ("distance", "6")],
                csrfFrom: "/workouts/new")
            let workout = try await oda.get(try #require(made.location))
            let today = try Self.portugueseDay(app.clock.now)
            #expect(workout.contains(today + " "), "\(Self.readableText(workout.body).prefix(2000))")
            // Neither "Sex, 27 nov" (capitalised, with a comma) nor "sex, 27 nov" anywhere.
            let other = try NSRegularExpression(pattern: #"(?i)\b(dom|seg|ter|qua|qui|sex|sáb), \d{1,2} (jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez)\b"#)
            let capitalised = try NSRegularExpression(pattern: #"\b(Dom|Seg|Ter|Qua|Qui|Sex|Sáb),? \d{1,2} [a-z]{3}"#)
            for page in [games, workout] {
                let text = page.body
                #expect(other.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil)
                #expect(capitalised.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil)
            }
        }
    }
}
