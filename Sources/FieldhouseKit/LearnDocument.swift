import Foundation

/// A Learn article as written in `Resources/Learn/*.md`: front matter between `---` lines
/// (`key: value`, and `videos:` followed by `- Title | https://…` lines), then Markdown.
public struct LearnDocument: Equatable, Sendable {
    public struct Video: Equatable, Sendable {
        public let title: String
        public let url: String

        public init(title: String, url: String) {
            self.title = title
            self.url = url
        }

        /// `Title | https://…`, with or without the leading `- ` of a front-matter list. Only
        /// https addresses are taken: a link card must not run script or downgrade the page.
        public init(line: String) throws {
            var text = Substring(line.trimmingCharacters(in: .whitespaces))
            if text.hasPrefix("-") { text = text.dropFirst() }
            let parts = text.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, parts[1].hasPrefix("https://"), parts[1].count > 8,
                !parts[1].contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
            else {
                throw Problem.badVideo(line.trimmingCharacters(in: .whitespaces))
            }
            self.init(title: parts[0], url: parts[1])
        }

        /// The line as written in front matter and in the editor's video field.
        public var line: String { "\(title) | \(url)" }
    }

    public var title: String
    public var slug: String
    public var category: String
    public var summary: String
    public var audience: String
    public var videos: [Video]
    public var body: String

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case noFrontMatter
        case missing(String)
        case badSlug(String)
        case badVideo(String)

        public var description: String {
            switch self {
            case .noFrontMatter: "The file must start with front matter between two lines of ---."
            case .missing(let key): "The front matter has no \(key)."
            case .badSlug(let slug): "The slug “\(slug)” may only hold lowercase letters, digits and hyphens."
            case .badVideo(let line): "A video must be “- Title | https://…”, not “\(line)”."
            }
        }
    }

    public init(title: String, slug: String, category: String, summary: String, audience: String, videos: [Video], body: String) {
        self.title = title
        self.slug = slug
        self.category = category
        self.summary = summary
        self.audience = audience
        self.videos = videos
        self.body = body
    }

    public init(parsing text: String) throws {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---",
            let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" })
        else {
            throw Problem.noFrontMatter
        }
        var fields: [String: String] = [:]
        var videos: [Video] = []
        var inVideos = false
        for raw in lines[1..<end] {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if inVideos, line.hasPrefix("-") {
                videos.append(try Video(line: line))
                continue
            }
            inVideos = false
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if key == "videos" { inVideos = true; continue }
            fields[key] = value
        }
        func required(_ key: String) throws -> String {
            guard let value = fields[key], !value.isEmpty else { throw Problem.missing(key) }
            return value
        }
        title = try required("title")
        slug = try required("slug")
        guard Self.isValidSlug(slug) else { throw Problem.badSlug(slug) }
        category = try required("category")
        summary = try required("summary")
        audience = fields["audience"] ?? "everyone"
        self.videos = videos
        body = lines[(end + 1)...].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Lowercase ASCII letters, digits and single hyphens inside, at most 80 characters.
    public static func isValidSlug(_ slug: String) -> Bool {
        !slug.isEmpty && slug.count <= 80 && !slug.hasPrefix("-") && !slug.hasSuffix("-") && !slug.contains("--")
            && slug.allSatisfy { ($0.isLetter && $0.isLowercase && $0.isASCII) || ($0.isNumber && $0.isASCII) || $0 == "-" }
    }

    /// A slug made from a title: accents folded, anything else becomes a hyphen.
    public static func slug(from title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).lowercased()
        var slug = ""
        for character in folded {
            if character.isASCII, character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.count > 80 {
            slug = String(slug.prefix(80))
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug
    }

    /// The document as a file in `Resources/Learn`; parsing it gives the same document back.
    /// Comparing two revisions compares these, so a changed summary or video shows too.
    public var fileText: String {
        var lines = ["---", "title: \(title)", "slug: \(slug)", "category: \(category)", "summary: \(summary)", "audience: \(audience)"]
        lines.append("videos:")
        lines += videos.map { "- \($0.line)" }
        lines += ["---", "", body]
        return lines.joined(separator: "\n")
    }

    /// Words in the body, for reading time and search.
    public var wordCount: Int { body.split { $0.isWhitespace }.count }

    /// Minutes at 200 words a minute, at least one.
    public var readingMinutes: Int { max(1, Int((Double(wordCount) / 200).rounded())) }

    /// The body without Markdown punctuation, for search and snippets.
    public var plainText: String {
        var text = body
        for mark in ["#", "*", "_", "`", "|", ">"] { text = text.replacingOccurrences(of: mark, with: " ") }
        // Links: keep the words, drop the addresses.
        text = text.replacingOccurrences(of: #"\]\([^)]*\)"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"<https?://[^>]*>"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: "[", with: " ").replacingOccurrences(of: "]", with: " ")
        text = text.replacingOccurrences(of: #"-{3,}"#, with: " ", options: .regularExpression)
        // List markers stand alone once the words around them are split apart.
        return text.split { $0.isWhitespace }.filter { $0 != "-" && $0 != "+" }.joined(separator: " ")
    }
}
