@testable import App
import Foundation
import Leaf
import SnapshotTesting
import Testing
import Vapor

/// Renders a page's template from a hand-built context, with no database: the Leaf renderer set
/// up as `configure` sets it up (the `Views` folder, `#url` over the registered routes, `#t` and
/// `#tn` over the catalogue in `Resources/Locales`), in an app whose features are booted but which
/// never opens a database or serves. A state that is hard to reach through the app (a person
/// under 16, a form with every field wrong, fifty items) is then one struct away.
enum PageRenderer {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// One app for every snapshot: booting the features is the slow part.
    private static let shared = Task { () throws -> Application in
        let app = try await Application.make(.testing)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldhouse-render-" + UUID().uuidString.lowercased()).path
        // The features read their configuration when they boot; the database named here is never opened.
        app.config = AppConfig(dataDirectory: directory, database: .sqlite(path: directory + "/never-opened.sqlite"), logLevel: .warning)
        Words.install(try Catalogue.load(directory: root.appendingPathComponent("Resources/Locales").path))
        app.views.use(.leaf)
        app.leaf.configuration.rootDirectory = root.appendingPathComponent("Views").path + "/"
        app.leaf.cache.isEnabled = true
        app.features = Features.all
        try routes(app)
        app.leaf.tags["url"] = URLTag(routes: app.routes.all)
        app.leaf.tags["t"] = TranslateTag()
        app.leaf.tags["tn"] = TranslatePluralTag()
        return app
    }

    static func app() async throws -> Application { try await shared.value }

    /// A request for `path` in `language`, as the page's template sees it (`#t` reads its language).
    static func request(_ path: String = "/", language: Language = .en) async throws -> Request {
        let app = try await app()
        let request = Request(application: app, method: .GET, url: URI(string: path), on: app.eventLoopGroup.next())
        request.headers.replaceOrAdd(name: .acceptLanguage, value: language.rawValue)
        return request
    }

    /// The page `template` shows for `context`, as the app would send it.
    static func render(_ template: String, _ context: some Encodable, language: Language = .en, path: String = "/") async throws -> String {
        let request = try await request(path, language: language)
        let view = try await request.view.render(template, context)
        return String(buffer: view.data)
    }

    /// Builds a context in `language`: what Swift code writes with `t(...)` and `Format` follows it.
    static func inLanguage<T>(_ language: Language, _ make: () throws -> T) rethrows -> T {
        try Language.$current.withValue(language, operation: make)
    }

    /// The shared frame's part of a context, as `Request.layout` makes it, without a request.
    static func layout(
        _ title: String, section: Layout.Section? = nil, viewer: Layout.Viewer? = Viewers.ana, language: Language = .en,
        here: String = "/", hasForms: Bool = false, flash: Flash? = nil, counts: [String: Int] = [:], settingsTabs: [Layout.Tab] = []
    ) -> Layout {
        Layout(
            title: title, lang: language.rawValue,
            languages: Language.allCases.map { Layout.LanguageChoice(code: $0.rawValue, name: $0.name, current: $0 == language) },
            languageName: language.name, here: here, section: section, csrf: viewer == nil && !hasForms ? "" : "csrf-token", viewer: viewer, flash: flash,
            counts: Dictionary(headerCountNames.map { ($0, viewer == nil ? 0 : counts[$0] ?? 0) }, uniquingKeysWith: +),
            settingsTabs: settingsTabs, refreshSeconds: nil, refreshWithoutScriptOnly: false,
            // A folder without the files: plain paths, the same on every machine.
            assets: AssetURLs(publicDirectory: "/nonexistent/"))
    }

    /// The header's counts, every feature's, as the session middleware fills them.
    static let headerCountNames = Features.all.flatMap { $0.headerCounts }.map(\.name)

    enum Viewers {
        static let ana = Layout.Viewer(username: "ana", displayName: "Ana Lima", initials: "AL", avatarURL: nil, isAdmin: false)
        static let teen = Layout.Viewer(username: "tomas", displayName: "Tomás Reis", initials: "TR", avatarURL: nil, isAdmin: false)
        static let coach = Layout.Viewer(username: "cora", displayName: "Cora Coach", initials: "CC", avatarURL: nil, isAdmin: false)
    }
}

extension Snapshotting where Value == String, Format == String {
    /// A page as its HTML, compared line by line, kept as `.html` so it opens in a browser.
    static var html: Self { Snapshotting(pathExtension: "html", diffing: .lines) }
}

extension SnapshotTestingConfiguration.Record {
    /// Snapshots are written only when `FIELDHOUSE_RECORD_SNAPSHOTS=1` says so. Otherwise a missing
    /// or different file fails the test and nothing is written, so CI cannot record its own answer.
    static var fieldhouse: Self {
        ProcessInfo.processInfo.environment["FIELDHOUSE_RECORD_SNAPSHOTS"] == "1" ? .all : .never
    }
}
