import Crypto
import Foundation
import Vapor

/// The addresses of the stylesheet, script and icon, each with a version taken from its content
/// (`/css/app.css?v=…`). A browser or proxy may keep a versioned file for a year: a new release
/// changes the address, so nobody is left with yesterday's CSS against today's HTML.
struct AssetURLs: Encodable, Sendable {
    let css: String
    let js: String
    let icon: String
    /// The recorder's script (`/record` and the live pages only).
    let record: String
    /// The web app manifest, which makes the site installable.
    let manifest: String
    /// The version of every versioned file, by path.
    let versions: [String: String]

    init(publicDirectory: String) {
        var versions: [String: String] = [:]
        for path in ["/css/app.css", "/js/app.js", "/favicon.svg", "/js/record.js", "/manifest.json"] {
            guard let bytes = FileManager.default.contents(atPath: publicDirectory + path.dropFirst()) else { continue }
            versions[path] = Format.hex(SHA256.hash(data: bytes).prefix(6))
        }
        func url(_ path: String) -> String { versions[path].map { path + "?v=" + $0 } ?? path }
        css = url("/css/app.css")
        js = url("/js/app.js")
        icon = url("/favicon.svg")
        record = url("/js/record.js")
        manifest = url("/manifest.json")
        self.versions = versions
    }

    private enum CodingKeys: String, CodingKey { case css, js, icon, record, manifest }
}

/// Serves `Public/`. A request for the current version of a file may be kept for a year; any
/// other (an old version, or no version) is revalidated after five minutes.
struct StaticFilesMiddleware: AsyncMiddleware {
    private let files: FileMiddleware
    private let assets: AssetURLs

    /// Files served from the site's root: the icon, the service worker and the web app manifest.
    static let rootFiles: Set<String> = ["/favicon.svg", "/sw.js", "/manifest.json"]

    init(publicDirectory: String, assets: AssetURLs) {
        files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: nil)
        self.assets = assets
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard path.hasPrefix("/css/") || path.hasPrefix("/js/") || path.hasPrefix("/img/") || Self.rootFiles.contains(path) else {
            return try await next.respond(to: request)
        }
        let response = try await files.respond(to: request, chainingTo: next).get()
        if path == "/sw.js" {
            // The service worker sits at the root so it may look after /record; browsers must ask
            // for a new one each time, or a fixed worker would wait for a day.
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
        } else if response.status == .ok || response.status == .notModified {
            let current = assets.versions[path] != nil && request.query[String.self, at: "v"] == assets.versions[path]
            response.headers.replaceOrAdd(
                name: .cacheControl, value: current ? "public, max-age=31536000, immutable" : "public, max-age=300, must-revalidate")
        }
        return response
    }
}

extension Application {
    private struct AssetURLsKey: StorageKey { typealias Value = AssetURLs }

    /// Read once at start-up: the files only change with a release, which restarts the server.
    var assets: AssetURLs {
        get { storage[AssetURLsKey.self] ?? AssetURLs(publicDirectory: directory.publicDirectory) }
        set { storage[AssetURLsKey.self] = newValue }
    }
}
