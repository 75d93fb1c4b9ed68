import FieldhouseKit
import Foundation

/// The editor's form: every field of an article, the revision the editor started from (to notice
/// someone else saving meanwhile) and which button was pressed.
struct LearnArticleForm: Codable {
    var title: String?
    var slug: String?
    var category: String?
    var summary: String?
    var audience: String?
    var videos: String?
    var body: String?
    /// The newest revision when the form was opened.
    var base: String?
    /// "draft", "publish" or "preview".
    var action: String?

    static let maxBody = 200_000
    /// Slugs that name editor pages under /learn.
    static let reserved: Set<String> = ["new", "preview"]

    init(
        title: String? = nil, slug: String? = nil, category: String? = nil, summary: String? = nil, audience: String? = nil,
        videos: String? = nil, body: String? = nil, base: String? = nil, action: String? = nil
    ) {
        self.title = title
        self.slug = slug
        self.category = category
        self.summary = summary
        self.audience = audience
        self.videos = videos
        self.body = body
        self.base = base
        self.action = action
    }

    init(_ document: LearnDocument, base: UUID?) {
        self.init(
            title: document.title, slug: document.slug, category: document.category, summary: document.summary,
            audience: LearnLibrary.audienceLabel(document.audience), videos: document.videos.map(\.line).joined(separator: "\n"), body: document.body,
            base: base?.uuidString)
    }

    /// The document the form describes, or a message per field. The slug defaults to one made from
    /// the title (for a new article) or to `currentSlug`; whether it is taken is checked later.
    func validated(currentSlug: String?) -> (document: LearnDocument?, errors: FieldErrors) {
        var errors: FieldErrors = [:]
        func clean(_ text: String?) -> String {
            (text ?? "").replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let title = clean(title).replacingOccurrences(of: "\n", with: " ")
        if title.count < 3 || title.count > 120 { errors["title"] = t("Give the article a title of 3 to 120 characters.") }
        var slug = clean(slug).lowercased()
        if slug.isEmpty { slug = currentSlug ?? LearnDocument.slug(from: title) }
        if !LearnDocument.isValidSlug(slug) {
            errors["slug"] = t("Use lowercase letters, digits and single hyphens (at most 80), like “warm-up-basics”.")
        } else if Self.reserved.contains(slug) {
            errors["slug"] = t("“{slug}” names an editor page; choose another.", slug)
        }
        let category = clean(category)
        if !LearnLibrary.categories.contains(category) { errors["category"] = t("Choose one of the categories.") }
        let summary = clean(summary).replacingOccurrences(of: "\n", with: " ")
        if summary.count < 10 || summary.count > 300 {
            errors["summary"] = t("Write a summary of 10 to 300 characters: it shows in the library and in search.")
        }
        var audience = clean(audience).replacingOccurrences(of: "\n", with: " ")
        // The default is stored in English (the weekly nudge looks for it), whatever language the form showed it in.
        if audience.isEmpty || audience == t("everyone") { audience = "everyone" }
        if audience.count > 80 { errors["audience"] = t("Keep the audience under 80 characters, like “teenagers and parents”.") }
        var videos: [LearnDocument.Video] = []
        for line in clean(self.videos).split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let video = try? LearnDocument.Video(line: String(line)), video.title.count <= 120, video.url.count <= 500 else {
                errors["videos"] = t("Write one video per line as “Title | https://…” (https only): “{line}” is not.", line.prefix(80))
                break
            }
            videos.append(video)
        }
        if videos.count > 12 { errors["videos"] = t("At most 12 videos.") }
        let body = clean(body)
        if body.isEmpty {
            errors["body"] = t("Write the article.")
        } else if body.count > Self.maxBody {
            errors["body"] = tn(
                "The article is {count} character; the most is 200,000. Split it in two.",
                "The article is {count} characters; the most is 200,000. Split it in two.", body.count)
        }
        guard errors.isEmpty else { return (nil, errors) }
        return (LearnDocument(title: title, slug: slug, category: category, summary: summary, audience: audience, videos: videos, body: body), [:])
    }
}
