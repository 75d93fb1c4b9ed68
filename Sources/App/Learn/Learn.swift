import Vapor

/// Learn: articles on training and safety, their editors, revisions and search.
enum Learn: Feature {
    static var routePatterns: [String] { LearnPath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: LearnController())
        try app.register(collection: LearnEditorController())
        try app.register(collection: LearnTranslationController())
        app.asyncCommands.use(LearnCommands(), as: "learn")
        app.learnCaches = LearnCaches()
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let learn = try await LearnLibrary.importFiles(app: app)
        return learn.added + learn.updated > 0 ? ["Learn: \(learn.added) articles added, \(learn.updated) updated."] : []
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.articles > 0 else { return [] }
        try await BenchLearn.seed(count: options.articles, app: app)
        return ["Learn now has at least \(options.articles) benchmark articles (/learn/bench-1 …)."]
    }
}

/// The published library and the pages made from it.
struct LearnCaches: Sendable {
    /// The published Learn library with its search index.
    let library = LearnCatalog()
    /// Article pages as anonymous readers get them, keyed by library version and slug.
    let pages = MemoryCache<ByteBuffer>(capacity: 512)
}

extension Application {
    private struct LearnCachesKey: StorageKey { typealias Value = LearnCaches }

    /// Set once by `Learn.boot`, before any request.
    var learnCaches: LearnCaches {
        get { storage[LearnCachesKey.self]! }
        set { storage[LearnCachesKey.self] = newValue }
    }
}
