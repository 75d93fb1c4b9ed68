import Foundation
import Testing

extension Browser.Page {
    /// The page's own content: the text between `<main…>` and `</main>`. The header, navigation
    /// and footer every page shares name the viewer, the sections and the languages, so a check for
    /// such a text on the whole page passes whatever the page itself shows; a check of what the
    /// page is about reads this instead. A page without a `<main>` fails the test and gives "".
    var main: String {
        guard let element = Self.mainElement(of: body) else {
            Issue.record("the page (\(status.code)) has no <main>…</main>: \(body.prefix(200))")
            return ""
        }
        return element
    }

    static func mainElement(of html: String) -> String? {
        guard let tag = html.range(of: "<main"), let open = html[tag.upperBound...].firstIndex(of: ">"),
            let close = html.range(of: "</main>", range: html.index(after: open)..<html.endIndex)
        else { return nil }
        return String(html[html.index(after: open)..<close.lowerBound])
    }
}
