import Fluent
import Vapor

/// Page numbers for lists. Fetches one row more than it shows to know whether a next page exists,
/// so no COUNT(*) runs on every page view.
struct Pager: Encodable {
    let page: Int
    let perPage: Int
    var hasNext = false
    var previousURL: String?
    var nextURL: String?

    init(req: Request, perPage: Int = 20) {
        let requested = req.query[Int.self, at: "page"] ?? 1
        page = min(max(requested, 1), 10_000)
        self.perPage = perPage
    }

    var offset: Int { (page - 1) * perPage }
    /// Rows to fetch: one page plus one to detect the next page.
    var fetchLimit: Int { perPage + 1 }

    /// Trims the extra row and builds links that keep the other query parameters.
    mutating func finish<T>(_ rows: [T], at url: SiteURL, query: [(String, String)]) -> [T] {
        hasNext = rows.count > perPage
        func link(_ number: Int) -> String {
            url.with(query.map { ($0.0, Optional($0.1)) } + [("page", number > 1 ? String(number) : nil)])
        }
        previousURL = page > 1 ? link(page - 1) : nil
        nextURL = hasNext ? link(page + 1) : nil
        return Array(rows.prefix(perPage))
    }
}
