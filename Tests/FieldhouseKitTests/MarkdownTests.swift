import FieldhouseKit
import Testing

@Suite struct MarkdownTests {
    @Test func rendersAHeadingAndATable() {
        let html = Markdown.html("""
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
