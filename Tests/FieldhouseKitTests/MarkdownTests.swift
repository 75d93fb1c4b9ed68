import FieldhouseKit
import Testing

@Suite struct MarkdownTests {
    @Test func rendersAHeadingAndATable() {
        let html = Markdown.html(
            """
            # Warm-up

            | Minutes | What |
            |---------|------|
            | 5       | Jog  |
            """)
        #expect(html.contains("<h1 id=\"Warm-up\">Warm-up</h1>") || html.contains(">Warm-up</h1>"))
        #expect(html.contains("<table>"))
        #expect(html.contains("<th>Minutes</th>") || html.contains("<th> Minutes </th>") || html.contains(">Minutes</th>"))
        #expect(html.contains("Jog"))
    }

    @Test func rawHTMLAndScriptLinksAreNotPassedThrough() {
        let html = Markdown.html("Hello <script>alert(1)</script> and [x](javascript:alert(1))")
        #expect(!html.contains("<script>"))
        #expect(!html.contains("href=\"javascript:"))
    }

    @Test func emptyInputGivesEmptyOutput() {
        #expect(Markdown.html("") == "")
    }
}

@Suite struct LearnDocumentTests {
    @Test func slugsAreMadeFromTitles() {
        #expect(LearnDocument.slug(from: "Warm-up & cool-down: the basics!") == "warm-up-cool-down-the-basics")
        #expect(LearnDocument.slug(from: "Éducation physique à l’école") == "education-physique-a-l-ecole")
        #expect(LearnDocument.slug(from: "   ") == "")
        #expect(LearnDocument.isValidSlug("a-1") && !LearnDocument.isValidSlug("-a") && !LearnDocument.isValidSlug("a--b") && !LearnDocument.isValidSlug("A"))
    }

    @Test func aDocumentSurvivesWritingAndReadingBack() throws {
        let document = LearnDocument(
            title: "Drinking", slug: "drinking", category: "Nutrition and hydration", summary: "Water.",
            audience: "everyone", videos: [.init(title: "How much", url: "https://example.org/v")], body: "## One\n\nText.")
        #expect(try LearnDocument(parsing: document.fileText) == document)
    }
}
