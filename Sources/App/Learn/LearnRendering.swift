import FieldhouseKit
import Foundation

/// Markdown to the HTML an article page shows: Discount with raw HTML off (see `Markdown`), and
/// every link marked `rel="nofollow noopener"` so articles pass no ranking and no window handle.
enum LearnRendering {
    static func html(_ markdown: String) -> String {
        Markdown.html(markdown).replacingOccurrences(of: "<a href=\"", with: "<a rel=\"nofollow noopener\" href=\"")
    }

    struct Heading: Encodable {
        let id: String
        let text: String
        let level: Int
    }

    /// The table of contents: the h2 and h3 headings Discount gave ids to.
    static func headings(in html: String) -> [Heading] {
        guard let regex = try? NSRegularExpression(pattern: #"<h([23]) id="([^"]+)">(.*?)</h\1>"#) else { return [] }
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { match in
            guard let level = Range(match.range(at: 1), in: html), let id = Range(match.range(at: 2), in: html),
                  let text = Range(match.range(at: 3), in: html) else { return nil }
            // The heading's own markup (emphasis, entities) is dropped: the TOC shows plain words.
            let plain = String(html[text]).replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            return Heading(id: String(html[id]), text: plain.replacingOccurrences(of: "&amp;", with: "&"), level: Int(html[level]) ?? 2)
        }
    }
}
