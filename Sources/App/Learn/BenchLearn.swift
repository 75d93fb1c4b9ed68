import FieldhouseKit
import Fluent
import Vapor

/// `fieldhouse seed --bench-articles N`: a library of N published articles for `make bench`,
/// each put together from the paragraphs of the shipped ones (so the words and lengths are
/// those of real articles), numbered so every title and slug differs.
enum BenchLearn {
    static func seed(count: Int, app: Application) async throws {
        let sources = try await LearnArticle.query(on: app.db).filter(\.$slug !=~ "bench-").all()
        let paragraphs = sources.flatMap { $0.body.components(separatedBy: "\n\n") }.filter { !$0.isEmpty }
        guard !paragraphs.isEmpty else { return }
        let existing = try await LearnArticle.query(on: app.db).filter(\.$slug =~ "bench-").count()
        guard existing < count else { return }
        try await app.db.inTransaction { db in
            for number in existing..<count {
                let source = sources[number % sources.count]
                // Twenty paragraphs from all over the library, in a different mix for each article.
                let body = (0..<20).map { paragraphs[(number * 7 + $0 * 13) % paragraphs.count] }.joined(separator: "\n\n")
                let document = LearnDocument(
                    title: "\(source.title) (\(number + 1))", slug: "bench-\(number + 1)", category: source.category,
                    summary: source.summary, audience: source.audience, videos: [], body: body)
                try await LearnArticle().publish(document, author: nil, at: app.clock.now, on: db)
            }
        }
        app.learnCaches.library.changed()
    }
}
