@testable import App
import FieldhouseKit
import Fluent
import SQLKit
import Testing
import Vapor

@Suite("Learn library")
struct LearnTests {
    @Test func theShippedArticlesImportOnceAndReadWell() async throws {
        try await withApp { app in
            let first = try await LearnLibrary.importFiles(app: app.app)
            #expect(first.added >= 12 && first.updated == 0)
            let again = try await LearnLibrary.importFiles(app: app.app)
            #expect(again.added == 0 && again.updated == 0 && again.unchanged == first.added, "an unchanged file makes no revision")
            #expect(try await rowCount("learn_revisions", app.db) == first.added)

            let visitor = app.browser()
            let library = try await visitor.get("/learn")
            #expect(library.status == .ok)
            #expect(LearnLibrary.categories.count >= 3)
            for category in LearnLibrary.categories { #expect(library.contains(">\(category)</h2>"), "\(category)") }
            #expect(library.contains("min read"))

            let who = try await visitor.get("/learn/how-much-activity")
            #expect(who.status == .ok)
            #expect(who.contains("60 minutes a day") && who.contains("World Health Organization"))
            #expect(who.contains("On this page") && who.contains(#"<table>"#))
            // Links leave without passing ranking or a window handle.
            #expect(who.contains(#"<a rel="nofollow noopener" href="https://www.who.int/"#))
            #expect(try await visitor.get("/learn/no-such-article").status == .notFound)
        }
    }

    @Test func searchRanksAndMarksTheWords() async throws {
        try await withApp { app in
            _ = try await LearnLibrary.importFiles(app: app.app)
            let visitor = app.browser()
            let hydration = try await visitor.get("/learn?q=hydration")
            #expect(hydration.status == .ok)
            let first = try #require(hydration.firstMatch(#"<ol class="learn-list"><li><a href="/learn/([a-z0-9-]+)""#))
            #expect(first == "hydration")
            // The snippet starts at a whole word ("…through", not "…luid through").
            #expect(hydration.contains("<p>…through sweat makes exercise feel harder"))
            #expect(hydration.contains("<mark>hydration</mark>"))
            let drink = try await visitor.get("/learn?q=Drink")
            #expect(drink.contains("<mark>"))
            let nothing = try await visitor.get("/learn?q=quidditch")
            #expect(nothing.contains("0 results") && nothing.contains("Nothing matches"))
            let hostile = try await visitor.get("/learn?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
            #expect(hostile.status == .ok && !hostile.contains("<script>alert(1)"))
        }
    }

    @Test func aLargeLibraryPagesItsSearchAndCategories() async throws {
        try await withApp { app in
            _ = try await LearnLibrary.importFiles(app: app.app)
            try await BenchLearn.seed(count: 60, app: app.app)
            let visitor = app.browser()
            // A word finds the words it begins.
            let prefix = try await visitor.get("/learn?q=hydrat")
            #expect(prefix.firstMatch(#"<ol class="learn-list"><li><a href="/learn/([a-z0-9-]+)""#) == "hydration")
            #expect(prefix.contains("<mark>hydrat</mark>ion") || prefix.contains("<mark>Hydrat</mark>ion"))
            let water = try await visitor.get("/learn?q=water")
            let total = Int(try #require(water.firstMatch(#"<h2 id="results-h">(\d+) results"#))) ?? 0
            #expect(total > 20)
            #expect(water.body.matches(of: /<li><a href="\/learn\//).count == 20, "twenty to a page")
            let next = try #require(water.firstMatch(#"<a href="([^"]+)" rel="next""#)).replacingOccurrences(of: "&amp;", with: "&")
            let second = try await visitor.get(next)
            #expect(second.contains("Page 2") && second.body.matches(of: /<li><a href="\/learn\//).count == min(20, total - 20))

            let library = try await visitor.get("/learn")
            let more = try #require(library.firstMatch(#"<a href="(/learn\?category=[^"]+)">All \d+ articles in"#))
            let category = try await visitor.get(more)
            #expect(category.status == .ok && category.contains("← All categories"))
            #expect(try await visitor.get("/learn?category=Nonsense").status == .ok)
        }
    }

    @Test func readersShareACachedPageButEditorsSeeTheirBar() async throws {
        try await withApp { app in
            _ = try await LearnLibrary.importFiles(app: app.app)
            let editor = try await Self.makeEditor(app, "ed_ed", name: "Edda Editor")
            let visitor = app.browser()
            #expect(!(try await visitor.get("/learn/hydration").contains("/learn/hydration/edit")))
            #expect(try await editor.get("/learn/hydration").contains("/learn/hydration/edit"))
            #expect(!(try await visitor.get("/learn/hydration").contains("/learn/hydration/edit")), "the editor's page is not cached for readers")
            // A flash message is personal: that page is made for its reader.
            visitor.setCookie(Flash.cookieName, "eyJraW5kIjoiaW5mbyIsIm1lc3NhZ2UiOiJIZWxsbyByZWFkZXIifQ")
            #expect(try await visitor.get("/learn/hydration").contains("Hello reader"))
            visitor.setCookie(Flash.cookieName, nil)
            #expect(!(try await visitor.get("/learn/hydration").contains("Hello reader")))
        }
    }

    @Test func frontMatterIsChecked() throws {
        #expect(throws: LearnDocument.Problem.noFrontMatter) { try LearnDocument(parsing: "# Just text") }
        #expect(throws: LearnDocument.Problem.missing("summary")) { try LearnDocument(parsing: "---\ntitle: A\nslug: a\ncategory: Safety\n---\nBody") }
        #expect(throws: LearnDocument.Problem.badSlug("Bad Slug")) {
            try LearnDocument(parsing: "---\ntitle: A\nslug: Bad Slug\ncategory: Safety\nsummary: S\n---\nBody")
        }
        let document = try LearnDocument(
            parsing: "---\ntitle: A\nslug: a-1\ncategory: Safety\nsummary: S\nvideos:\n- Warm-up | https://example.org/v\n---\nOne two **three**.")
        #expect(document.videos == [.init(title: "Warm-up", url: "https://example.org/v")])
        #expect(document.plainText == "One two three .")
        #expect(document.readingMinutes == 1)
        #expect(throws: LearnDocument.Problem.badVideo("- Talk | javascript:alert(1)")) {
            try LearnDocument(parsing: "---\ntitle: A\nslug: a\ncategory: Safety\nsummary: S\nvideos:\n- Talk | javascript:alert(1)\n---\nx")
        }
    }

    // MARK: Editing

    static func makeEditor(_ app: TestApp, _ username: String, name: String) async throws -> Browser {
        let browser = app.browser()
        try await browser.signUp(username, name: name)
        try await User.query(on: app.db).filter(\.$username == username).set(\.$role, to: .editor).update()
        return browser
    }

    static func fields(
        title: String = "Cooling down after a match", slug: String = "", summary: String = "Five easy minutes that help you feel better tomorrow.",
        body: String = "## Why\n\nYour heart rate comes down gently.\n\n## How\n\n- Walk\n- Stretch", action: String,
        base: String = "", videos: String = ""
    ) -> [(String, String)] {
        [
            ("title", title), ("slug", slug), ("category", "Warm-up and mobility"), ("summary", summary), ("audience", "teenagers"),
            ("videos", videos), ("body", body), ("base", base), ("action", action),
        ]
    }

    @Test func anEditorWritesPreviewsPublishesAndRevises() async throws {
        try await withApp { app in
            let editor = try await Self.makeEditor(app, "ed_ed", name: "Edda Editor")
            let member = app.browser()
            try await member.signUp("mo_member")
            let visitor = app.browser()

            // Only editors write.
            #expect(try await visitor.get("/learn/new").location?.hasPrefix("/login") == true)
            #expect(try await member.get("/learn/new").status == .forbidden)
            #expect(try await member.post("/learn/new", Self.fields(action: "publish")).status == .forbidden)
            #expect(try await member.post("/learn/preview", [("body", "# Hi")]).status == .forbidden)
            #expect(!(try await member.get("/learn").contains("Editor's desk")))
            #expect(try await editor.get("/learn").contains("Editor's desk"))

            // Nonsense is refused field by field, with the text kept.
            let bad = try await editor.post(
                "/learn/new",
                Self.fields(
                    title: "x", slug: "Not A Slug", summary: "", body: "Kept <b>text</b>",
                    action: "publish", videos: "Talk | javascript:alert(1)"), csrfFrom: "/learn/new")
            #expect(bad.status == .unprocessableEntity)
            for message in ["title of 3 to 120", "lowercase letters, digits", "summary of 10 to 300", "https only"] {
                #expect(bad.contains(message), "\(message)")
            }
            #expect(bad.contains("Kept &lt;b&gt;text&lt;/b&gt;"))
            #expect(try await rowCount("learn_articles", app.db) == 0)
            #expect(try await editor.post("/learn/new", Self.fields(slug: "new", action: "draft"), csrfFrom: "/learn/new").contains("names an editor page"))
            #expect(try await editor.post("/learn/new", Self.fields(action: "draft"), csrfFrom: nil).status == .forbidden)

            // The preview is the page's own rendering.
            let preview = try await editor.post("/learn/preview", [("body", "## Warm up\n\n[WHO](https://www.who.int/)")], csrfFrom: "/learn/new")
            #expect(
                preview.status == .ok && preview.contains("<h2 id=") && preview.contains(#"<a rel="nofollow noopener" href="https://www.who.int/">WHO</a>"#))
            let noJS = try await editor.post("/learn/new", Self.fields(action: "preview"), csrfFrom: "/learn/new")
            #expect(noJS.status == .ok && noJS.contains("<li>Stretch</li>"))
            #expect(try await rowCount("learn_articles", app.db) == 0, "a preview saves nothing")

            // A draft: only editors see it, and search does not find it.
            let draft = try await editor.post("/learn/new", Self.fields(action: "draft"), csrfFrom: "/learn/new")
            #expect(draft.status == .seeOther && draft.location == "/learn/cooling-down-after-a-match/edit")
            #expect(try await visitor.get("/learn/cooling-down-after-a-match").status == .notFound)
            #expect(try await member.get("/learn/cooling-down-after-a-match").status == .notFound)
            #expect(!(try await visitor.get("/learn?q=cooling").contains("/learn/cooling-down-after-a-match")))
            #expect(!(try await visitor.get("/learn").contains("Cooling down")))
            let own = try await editor.get("/learn/cooling-down-after-a-match")
            #expect(own.status == .ok && own.contains("Not published"))
            #expect(try await editor.get("/learn").contains("Draft, never published"))

            // Publishing.
            var edit = try await editor.get("/learn/cooling-down-after-a-match/edit")
            var base = try #require(edit.firstMatch(#"name="base" value="([^"]+)""#))
            let published = try await editor.post("/learn/cooling-down-after-a-match/edit", Self.fields(action: "publish", base: base), csrfFrom: "/learn/new")
            #expect(published.location == "/learn/cooling-down-after-a-match")
            let page = try await visitor.get("/learn/cooling-down-after-a-match")
            #expect(page.status == .ok && page.contains("by Edda Editor") && page.contains("Your heart rate comes down gently"))
            #expect(!page.contains("Edit</a>"), "readers get no editor bar")
            #expect(try await visitor.get("/learn?q=cooling").contains("/learn/cooling-down-after-a-match"))
            #expect(try await rowCount("learn_revisions", app.db) == 1, "publishing what was saved adds no revision")

            // A draft of changes (new title and address) leaves readers on the published text.
            edit = try await editor.get("/learn/cooling-down-after-a-match/edit")
            base = try #require(edit.firstMatch(#"name="base" value="([^"]+)""#))
            let revised = Self.fields(
                title: "Cool-down basics", slug: "cool-down", body: "## Why\n\nYour heart rate comes down slowly.\n\n## How\n\n- Walk\n- Stretch\n- Drink",
                action: "draft", base: base)
            #expect(try await editor.post("/learn/cooling-down-after-a-match/edit", revised, csrfFrom: "/learn/new").location == "/learn/cool-down/edit")
            let old = try await visitor.get("/learn/cooling-down-after-a-match")
            #expect(old.status == .movedPermanently && old.location == "/learn/cool-down")
            #expect(try await visitor.get("/learn/cool-down").contains("comes down gently"))
            #expect(try await editor.get("/learn").contains("Changes not published yet"))

            // Someone else saved in between: the second editor is told, and loses nothing.
            let other = try await Self.makeEditor(app, "ot_other", name: "Otto Other")
            let stale = try await other.post(
                "/learn/cool-down/edit", Self.fields(title: "Cool-down basics", slug: "cool-down", body: "Otto's text", action: "publish", base: base),
                csrfFrom: "/learn/new")
            #expect(
                stale.status == .unprocessableEntity && stale.contains("Edda Editor saved this article") && stale.contains("Otto&#39;s text")
                    || stale.contains("Otto's text"))

            edit = try await editor.get("/learn/cool-down/edit")
            base = try #require(edit.firstMatch(#"name="base" value="([^"]+)""#))
            #expect(edit.contains("comes down slowly"), "the form holds the newest draft")
            var publish = revised
            publish[publish.count - 2] = ("base", base)
            publish[publish.count - 1] = ("action", "publish")
            #expect(try await editor.post("/learn/cool-down/edit", publish, csrfFrom: "/learn/new").status == .seeOther)
            let now = try await visitor.get("/learn/cool-down")
            #expect(now.contains("comes down slowly") && now.contains("<h1>Cool-down basics</h1>"))

            // Revisions and what changed.
            let history = try await editor.get("/learn/cool-down/revisions")
            #expect(history.status == .ok && history.main.contains("Edda Editor"))
            let ids = history.body.matches(of: /name="to" value="([0-9A-F-]{36})"/).map { String($0.1) }
            #expect(ids.count == 2)
            let diff = try await editor.get("/learn/cool-down/compare?from=\(ids[1])&to=\(ids[0])")
            #expect(diff.status == .ok)
            #expect(diff.contains(#"<tr class="diff-removed">"#) && diff.contains("Your heart rate comes down gently."))
            #expect(diff.contains(#"<tr class="diff-added">"#) && diff.contains("- Drink") && diff.contains("title: Cool-down basics"))
            #expect(try await member.get("/learn/cool-down/revisions").status == .forbidden)
            #expect(try await member.get("/learn/cool-down/compare?from=\(ids[1])&to=\(ids[0])").status == .forbidden)

            // Unpublishing hides it everywhere readers look.
            #expect(try await editor.post("/learn/cool-down/unpublish", [], csrfFrom: "/learn/new").status == .seeOther)
            #expect(try await visitor.get("/learn/cool-down").status == .notFound)
            #expect(!(try await visitor.get("/learn?q=cool").contains("/learn/cool-down")))
            #expect(try await editor.get("/learn/cool-down").contains("Not published"))
            // Its old address no longer leads readers to the new one.
            #expect(try await visitor.get("/learn/cooling-down-after-a-match").status == .notFound)
            #expect(try await editor.get("/learn/cooling-down-after-a-match").location == "/learn/cool-down")
            // Comparing needs two revisions named properly.
            #expect(try await editor.get("/learn/cool-down/compare?from=nonsense&to=\(ids[0])").status == .badRequest)
        }
    }

    @Test func importLeavesBrowserEditsAlone() async throws {
        try await withApp { app in
            _ = try await LearnLibrary.importFiles(app: app.app)
            let editor = try await Self.makeEditor(app, "ed_ed", name: "Edda Editor")
            let edit = try await editor.get("/learn/hydration/edit")
            let base = try #require(edit.firstMatch(#"name="base" value="([^"]+)""#))
            let fields = Self.fields(title: "Drinking enough around sport", slug: "hydration", body: "Edited in the browser.", action: "publish", base: base)
                .map { $0.0 == "category" ? ("category", "Nutrition and hydration") : $0 }
            #expect(try await editor.post("/learn/hydration/edit", fields, csrfFrom: "/learn/new").status == .seeOther)
            try await app.db.sql.raw("UPDATE learn_articles SET body = 'changed' WHERE slug = 'hydration'").run()
            let again = try await LearnLibrary.importFiles(app: app.app)
            #expect(again.keptEdited == 1)
            #expect(try await LearnArticle.query(on: app.db).filter(\.$slug == "hydration").first()?.body == "changed")
        }
    }

    // MARK: Safety

    /// Typed-in Markdown that tries to run script, load other sites or break out of attributes.
    static let payloads = [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "<svg/onload=alert(1)>",
        "<iframe src=\"https://evil.example\"></iframe>",
        "<a href=\"javascript:alert(1)\">raw link</a>",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click]( javascript:alert(1) )",
        "[click](jav&#x61;script:alert(1))",
        "[click](jav&#97;script&colon;alert(1))",
        "[click](java\tscript:alert(1))",
        "[click](vbscript:msgbox(1))",
        "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "![pic](javascript:alert(1))",
        "![pic](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
        "![tracker](https://tracker.example/pixel.gif)",
        "<javascript:alert(1)>",
        "[ref][r]\n\n[r]: javascript:alert(1)",
        "[x](https://ok.example \"a\" onmouseover=\"alert(1)\")",
        "[x](https://ok.example/\" onmouseover=\"alert(1))",
        "`<script>alert(1)</script>`",
        "```\n<script>alert(1)</script>\n```",
        "<style>body{display:none}</style>",
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "<object data=\"evil.swf\"></object>",
        "<form action=\"https://evil.example\"><input name=p></form>",
        "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">",
        "[x](#\" onclick=\"alert(1))",
        "<<script>script>alert(1)<</script>/script>",
        "## Heading <img src=x onerror=alert(1)>",
        "Footnote[^1]\n\n[^1]: <script>alert(1)</script>",
    ]

    static let allowedTags: Set<String> = [
        "p", "a", "em", "strong", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
        "blockquote", "table", "thead", "tbody", "tr", "th", "td", "hr", "br", "sup", "sub", "del", "div", "img",
    ]
    static let allowedAttributes: Set<String> = ["href", "rel", "title", "id", "class", "alt", "src", "style", "align", "rev"]

    /// Every tag in `html` that could run script or reach another site, described; empty when safe.
    static func activeMarkup(in html: String) -> [String] {
        var problems: [String] = []
        for tag in html.matches(of: /<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/) {
            let name = String(tag.1).lowercased()
            if !allowedTags.contains(name) { problems.append("tag <\(name)>"); continue }
            for attribute in String(tag.2).matches(of: /([a-zA-Z-]+)\s*=\s*"([^"]*)"/) {
                let key = String(attribute.1).lowercased(), value = String(attribute.2)
                if !allowedAttributes.contains(key) { problems.append("attribute \(key) on <\(name)>") }
                if key == "href" || key == "src" {
                    let lower = value.lowercased()
                    let safe =
                        lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:") || lower.hasPrefix("#")
                        || (lower.hasPrefix("/") && !lower.hasPrefix("//")) || (!lower.contains(":") && !lower.contains("&"))
                    if !safe { problems.append("\(key)=\(value)") }
                    if key == "src" && !(lower.hasPrefix("/") && !lower.hasPrefix("//")) { problems.append("image from elsewhere: \(value)") }
                }
                if key == "style" && value.lowercased().contains("url(") { problems.append("style \(value)") }
            }
            // An attribute outside quotes (onerror=…) would not match above: refuse any "on…=".
            let unquoted = String(tag.2).replacingOccurrences(of: #""[^"]*""#, with: "\"\"", options: .regularExpression)
            if unquoted.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) != nil {
                problems.append("handler in <\(name)\(tag.2)>")
            }
        }
        return problems
    }

    @Test func noXSSPayloadBecomesActiveMarkup() async throws {
        try await withApp { app in
            let editor = try await Self.makeEditor(app, "ed_ed", name: "Edda Editor")
            for payload in Self.payloads {
                let preview = try await editor.post("/learn/preview", [("body", payload)], csrfFrom: "/learn/new")
                #expect(preview.status == .ok)
                #expect(Self.activeMarkup(in: preview.body).isEmpty, "\(payload) → \(preview.body)")
            }
            // The words of a dropped link stay; the checker itself sees a bad link.
            let dropped = try await editor.post("/learn/preview", [("body", "[click me](javascript:alert(1))")], csrfFrom: "/learn/new")
            #expect(dropped.contains("click me") && !dropped.contains("<a "))
            #expect(!Self.activeMarkup(in: #"<a href="javascript:x">x</a><img src=x onerror=y>"#).isEmpty)

            // All of them at once in a published article, read by a visitor.
            let body = Self.payloads.joined(separator: "\n\n")
            let saved = try await editor.post("/learn/new", Self.fields(title: "Every payload", body: body, action: "publish"), csrfFrom: "/learn/new")
            #expect(saved.status == .seeOther)
            let page = try await app.browser().get("/learn/every-payload")
            #expect(page.status == .ok)
            let prose = try #require(page.body.range(of: #"<div class="prose">"#).map { String(page.body[$0.upperBound...]) })
            let article = String(prose[..<(prose.range(of: "</article>")?.lowerBound ?? prose.endIndex)])
            #expect(Self.activeMarkup(in: article).isEmpty, "\(Self.activeMarkup(in: article))")
            #expect(article.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "typed HTML shows as text")
            #expect(article.contains("Image: tracker") && !article.contains("<img"), "a picture from another site becomes a link")
            // The page's title and summary are escaped too.
            let hostile = try await editor.post(
                "/learn/new", Self.fields(title: "<script>alert(1)</script> title", summary: "<img src=x onerror=alert(1)> summary text", action: "publish"),
                csrfFrom: "/learn/new")
            #expect(hostile.status == .seeOther)
            let titled = try await app.browser().get(try #require(hostile.location))
            #expect(!titled.contains("<script>alert(1)") && !titled.contains("<img src=x"))
            #expect(!(try await app.browser().get("/learn?q=script").body.contains("<script>alert")))
        }
    }
}

extension LearnTests {
    /// Seven shipped articles come in Portuguese too: a Portuguese reader gets them (and, for an
    /// article nobody translated, the English with a note and `lang="en"`), an English reader the
    /// English. An editor writes or corrects a translation in the browser; nobody else may, and a
    /// later import of the files leaves the editor's version alone.
    @Test func readersGetTheirLanguagesVersionAndEditorsWriteIt() async throws {
        try await withApp { app in
            let first = try await LearnLibrary.importFiles(app: app.app)
            #expect(first.translated == 7 && first.added >= 12)
            #expect(try await LearnLibrary.importFiles(app: app.app).translated == 0, "an unchanged translation is not written again")
            let english = app.browser()
            let portuguese = app.browser()
            portuguese.extraHeaders.replaceOrAdd(name: .acceptLanguage, value: "pt-PT")
            let hydration = try await portuguese.get("/learn/hydration")
            #expect(
                hydration.contains(#"<html lang="pt-PT">"#) && hydration.contains("<h1>Beber o suficiente quando fazes desporto"),
                "\(hydration.body.prefix(2000))")
            #expect(!hydration.contains("not been translated") && !hydration.contains("ainda não foi traduzido"))
            #expect(try await english.get("/learn/hydration").contains("<h1>Drinking enough around sport"))
            let library = try await portuguese.get("/learn")
            #expect(library.contains("Beber o suficiente quando fazes desporto") && library.contains(">Começar a mexer-se</h2>"))
            // An article not translated yet is marked as English in the list, for the eye and for screen readers.
            let cycling = try #require(library.firstMatch(#"<li lang="en"><a href="/learn/safe-cycling">([^<]*)</a>[^\n]*?em inglês"#), "safe-cycling unmarked")
            #expect(!cycling.isEmpty)
            #expect(!library.contains(#"<li lang="en"><a href="/learn/hydration">"#))
            let untranslated = try await portuguese.get("/learn/safe-cycling")
            #expect(untranslated.contains("ainda não foi traduzido") && untranslated.contains(#"<article class="panel learn-article" lang="en">"#))

            // Only editors write translations.
            let editor = try await Self.makeEditor(app, "ed_pt", name: "Edite Editora")
            let member = app.browser()
            try await member.signUp("mo_pt")
            let form = "/learn/safe-cycling/translation/pt-PT"
            #expect(try await member.get(form).status == .forbidden)
            #expect(try await member.post(form, [("title", "Pedalar em segurança")], csrfFrom: "/settings/profile").status == .forbidden)
            #expect(try await editor.get("/learn/safe-cycling/translation/en").status == .notFound)
            #expect(try await editor.get("/learn/no-such/translation/pt-PT").status == .notFound)
            let refused = try await editor.post(form, [("title", "x"), ("summary", ""), ("body", "")], csrfFrom: form)
            #expect(refused.status == .unprocessableEntity && refused.contains("title of 3 to 120"))
            let fields = [
                ("title", "Pedalar em segurança"), ("summary", "Como andar de bicicleta na cidade sem sustos, de dia e de noite."),
                ("audience", ""), ("body", "## Antes de sair\n\nVerifica os travões e as luzes."),
            ]
            #expect(try await editor.post(form, fields, csrfFrom: form).status == .seeOther)
            let translated = try await portuguese.get("/learn/safe-cycling")
            #expect(translated.contains("<h1>Pedalar em segurança") && translated.contains("Verifica os travões"))
            #expect(!translated.contains("ainda não foi traduzido"))
            #expect(try await english.get("/learn/safe-cycling").contains("<h1>Cycling safely"))

            // The shipped Portuguese file does not overwrite an editor's correction.
            let hydrationForm = "/learn/hydration/translation/pt-PT"
            let corrected = fields.map { $0.0 == "title" ? ("title", "Beber água quando treinas") : $0 }
            #expect(try await editor.post(hydrationForm, corrected, csrfFrom: hydrationForm).status == .seeOther)
            _ = try await LearnLibrary.importFiles(app: app.app)
            #expect(try await portuguese.get("/learn/hydration").contains("<h1>Beber água quando treinas"))
        }
    }
}
