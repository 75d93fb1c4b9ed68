@testable import App
import FieldhouseKit
import Fluent
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

    @Test func frontMatterIsChecked() throws {
        #expect(throws: LearnDocument.Problem.noFrontMatter) { try LearnDocument(parsing: "# Just text") }
        #expect(throws: LearnDocument.Problem.missing("summary")) { try LearnDocument(parsing: "---\ntitle: A\nslug: a\ncategory: Safety\n---\nBody") }
        #expect(throws: LearnDocument.Problem.badSlug("Bad Slug")) { try LearnDocument(parsing: "---\ntitle: A\nslug: Bad Slug\ncategory: Safety\nsummary: S\n---\nBody") }
        let document = try LearnDocument(parsing: "---\ntitle: A\nslug: a-1\ncategory: Safety\nsummary: S\nvideos:\n- Warm-up | https://example.org/v\n---\nOne two **three**.")
        #expect(document.videos == [.init(title: "Warm-up", url: "https://example.org/v")])
        #expect(document.plainText == "One two three .")
        #expect(document.readingMinutes == 1)
        #expect(throws: LearnDocument.Problem.badVideo("- Talk | javascript:alert(1)")) {
            try LearnDocument(parsing: "---\ntitle: A\nslug: a\ncategory: Safety\nsummary: S\nvideos:\n- Talk | javascript:alert(1)\n---\nx")
        }
    }
}
