import FieldhouseKit
import Foundation

/// Markdown to the HTML an article page shows. Discount runs with raw HTML off (see `Markdown`),
/// so typed tags arrive as text; on top of that every link and image address is checked here,
/// whatever Discount let through: only http, https, mailto and addresses on this site stay
/// (`javascript:`, `data:`, `vbscript:` and encoded tricks lose their link and keep their
/// words). Links get `rel="nofollow noopener"` so articles pass no ranking and no window handle,
/// and images from other sites become links: an article must not make readers' browsers call a
/// third party.
enum LearnRendering {
    static func html(_ markdown: String, as kind: Markdown.Kind = .article) -> String {
        var html = Markdown.html(markdown, as: kind)
        html = replace(anchor, in: html) { groups in
            let (href, rest, words) = (groups[0], groups[1], groups[2])
            guard isSafe(href) else { return words }
            return "<a rel=\"nofollow noopener\" href=\"\(href)\"\(rest)>\(words)</a>"
        }
        html = replace(image, in: html) { groups in
            let (src, alt) = (groups[0], attribute("alt", in: groups[1]) ?? "")
            guard isSafe(src) else { return alt }
            if isOnThisSite(src) { return "<img src=\"\(src)\"\(groups[1])>" }
            return "<a rel=\"nofollow noopener\" class=\"image-link\" href=\"\(src)\">Image: \(alt.isEmpty ? "open" : alt)</a>"
        }
        return html
    }

    private static let anchor = try! NSRegularExpression(pattern: #"<a href="([^"]*)"([^>]*)>(.*?)</a>"#, options: [.dotMatchesLineSeparators])
    private static let image = try! NSRegularExpression(pattern: #"<img src="([^"]*)"([^>]*?)\s*/?>"#)

    /// http(s), mailto, or a path on this site; judged after HTML entities are decoded, so
    /// `jav&#x61;script:` is seen for what it is.
    static func isSafe(_ url: String) -> Bool {
        let decoded = String(decodeEntities(url).unicodeScalars.filter(isKept)).lowercased()
        // An entity left undecoded could hide a colon: refuse rather than guess.
        if decoded.contains("&#") { return false }
        guard let colon = decoded.firstIndex(of: ":") else { return true }
        let beforeColon = decoded[..<colon]
        // A colon after the first slash, ? or # is part of a path or query, not a scheme.
        if beforeColon.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return true }
        return ["http", "https", "mailto"].contains(String(beforeColon))
    }

    /// Browsers skip whitespace and control characters inside a scheme ("java\tscript:").
    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 32 && scalar.value != 127 && !scalar.properties.isWhitespace
    }

    private static func isOnThisSite(_ url: String) -> Bool {
        url.hasPrefix("/") && !url.hasPrefix("//")
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = text
        let named: [String: String] = ["&amp;": "&", "&colon;": ":", "&tab;": "\t", "&newline;": "\n", "&quot;": "\"", "&lt;": "<", "&gt;": ">", "&apos;": "'"]
        // Numeric references, with or without the closing semicolon as browsers accept them.
        let numeric = try! NSRegularExpression(pattern: "&#(x[0-9a-fA-F]+|[0-9]+);?", options: [.caseInsensitive])
        for _ in 0..<3 {
            let before = result
            result = replace(numeric, in: result) { groups in
                let value = groups[0].lowercased()
                let code = value.hasPrefix("x") ? UInt32(value.dropFirst(), radix: 16) : UInt32(value)
                return code.flatMap(UnicodeScalar.init).map { String(Character($0)) } ?? ""
            }
            for (entity, character) in named { result = result.replacingOccurrences(of: entity, with: character, options: .caseInsensitive) }
            if result == before { break }
        }
        return result
    }

    private static func attribute(_ name: String, in attributes: String) -> String? {
        guard let range = attributes.range(of: "\(name)=\"([^\"]*)\"", options: .regularExpression) else { return nil }
        return String(attributes[range].dropFirst(name.count + 2).dropLast())
    }

    /// Replaces each match with what `transform` makes of its capture groups.
    private static func replace(_ regex: NSRegularExpression, in text: String, _ transform: ([String]) -> String) -> String {
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
        guard !matches.isEmpty else { return text }
        var result = ""
        var last = text.startIndex
        for match in matches {
            guard let whole = Range(match.range, in: text) else { continue }
            result += text[last..<whole.lowerBound]
            let groups = (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
            result += transform(groups)
            last = whole.upperBound
        }
        return result + text[last...]
    }

    private static let tocEntities: [String: String] = [
        "&rsquo;": "’", "&lsquo;": "‘", "&ldquo;": "“", "&rdquo;": "”", "&ndash;": "–", "&mdash;": "—",
        "&hellip;": "…", "&quot;": "\"", "&lt;": "<", "&gt;": ">", "&#39;": "'",
    ]

    struct Heading: Encodable, Sendable {
        let id: String
        let text: String
        let level: Int
    }

    /// The table of contents: the h2 and h3 headings Discount gave ids to.
    static func headings(in html: String) -> [Heading] {
        guard let regex = try? NSRegularExpression(pattern: #"<h([23]) id="([^"]+)">(.*?)</h\1>"#) else { return [] }
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { match in
            guard let level = Range(match.range(at: 1), in: html), let id = Range(match.range(at: 2), in: html),
                let words = Range(match.range(at: 3), in: html)
            else { return nil }
            // The heading's own markup (emphasis, entities) is dropped: the TOC shows plain words.
            let plain = String(html[words]).replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            // Leaf escapes the text again, so the entities Discount writes go back to characters.
            var text = plain
            for (entity, character) in tocEntities { text = text.replacingOccurrences(of: entity, with: character) }
            text = text.replacingOccurrences(of: "&amp;", with: "&")
            return Heading(id: String(html[id]), text: text, level: Int(html[level]) ?? 2)
        }
    }
}
