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
    /// What `app.js` loads when a page has a map to upgrade (`maps`, with Leaflet's script and
    /// stylesheet, when Leaflet is installed) or a chart to read (`charts`).
    let maps: String
    let charts: String
    /// What an open conversation adds: new messages as they come, sending without a reload.
    let messages: String
    let leaflet: String?
    let leafletCSS: String?
    /// The web app manifest, which makes the site installable.
    let manifest: String
    /// The version of every versioned file, by path.
    let versions: [String: String]

    init(publicDirectory: String, vendor: VendorFiles = VendorFiles(leafletDirectory: nil)) {
        var versions: [String: String] = [:]
        for path in ["/css/app.css", "/js/app.js", "/favicon.svg", "/js/record.js", "/manifest.json", "/js/maps.js", "/js/charts.js", "/js/messages.js"] {
            guard let bytes = FileManager.default.contents(atPath: publicDirectory + path.dropFirst()) else { continue }
            versions[path] = Self.version(bytes)
        }
        for (path, file) in vendor.files { versions[path] = Self.version(file.plain) }
        func url(_ path: String) -> String { versions[path].map { path + "?v=" + $0 } ?? path }
        css = url("/css/app.css")
        js = url("/js/app.js")
        icon = url("/favicon.svg")
        record = url("/js/record.js")
        manifest = url("/manifest.json")
        maps = url("/js/maps.js")
        charts = url("/js/charts.js")
        messages = url("/js/messages.js")
        leaflet = vendor.files[VendorFiles.leafletScript] != nil ? url(VendorFiles.leafletScript) : nil
        leafletCSS = vendor.files[VendorFiles.leafletStyle] != nil ? url(VendorFiles.leafletStyle) : nil
        self.versions = versions
    }

    private static func version(_ bytes: some DataProtocol) -> String { Format.hex(SHA256.hash(data: bytes).prefix(6)) }

    private enum CodingKeys: String, CodingKey { case css, js, icon, record, manifest, maps, charts, messages, leaflet, leafletCSS }
}

/// Libraries from the operating system's packages, served from this site's own origin (the CSP
/// allows no other) under `/vendor/`: Leaflet from Debian's `libjs-leaflet`. Read once at start-up
/// into memory with the package's gzip copy, which is what nearly every browser takes (39 KB
/// instead of 141 KB for the script).
struct VendorFiles: Sendable {
    struct File: Sendable {
        let plain: [UInt8]
        let gzip: [UInt8]?
        let type: HTTPMediaType
    }

    static let leafletScript = "/vendor/leaflet/leaflet.js"
    static let leafletStyle = "/vendor/leaflet/leaflet.css"

    let files: [String: File]

    init(leafletDirectory: String?) {
        var files: [String: File] = [:]
        if let folder = leafletDirectory {
            for (path, name, type) in [
                (Self.leafletScript, "leaflet.min.js", HTTPMediaType(type: "text", subType: "javascript", parameters: ["charset": "utf-8"])),
                (Self.leafletStyle, "leaflet.css", .css),
            ] {
                guard let plain = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
                let gzip = FileManager.default.contents(atPath: folder + "/" + name + ".gz")
                files[path] = File(plain: Array(plain), gzip: gzip.map(Array.init), type: type)
            }
        }
        self.files = files
    }

    /// Whether `Accept-Encoding` takes gzip: named (or `*`) without `q=0`.
    static func acceptsGzip(_ values: [String]) -> Bool {
        values.flatMap { $0.split(separator: ",") }.contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first, name == "gzip" || name == "*" else { return false }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return q > 0
        }
    }

    /// The file, compressed when the browser takes gzip; nil for any other path.
    func response(for request: Request) -> Response? {
        guard let file = files[request.url.path] else { return nil }
        var headers = HTTPHeaders()
        headers.contentType = file.type
        headers.replaceOrAdd(name: .vary, value: "Accept-Encoding")
        let acceptsGzip = Self.acceptsGzip(request.headers[.acceptEncoding])
        if let gzip = file.gzip, acceptsGzip {
            headers.replaceOrAdd(name: .contentEncoding, value: "gzip")
            return Response(status: .ok, headers: headers, body: .init(buffer: ByteBuffer(bytes: gzip)))
        }
        return Response(status: .ok, headers: headers, body: .init(buffer: ByteBuffer(bytes: file.plain)))
    }
}

/// Serves `Public/`. A request for the current version of a file may be kept for a year; any
/// other (an old version, or no version) is revalidated after five minutes.
struct StaticFilesMiddleware: AsyncMiddleware {
    private let files: FileMiddleware
    private let assets: AssetURLs
    private let vendor: VendorFiles

    /// Files served from the site's root: the icon, the service worker and the web app manifest.
    static let rootFiles: Set<String> = ["/favicon.svg", "/sw.js", "/manifest.json"]

    init(publicDirectory: String, assets: AssetURLs, vendor: VendorFiles) {
        files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: nil)
        self.assets = assets
        self.vendor = vendor
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard path.hasPrefix("/css/") || path.hasPrefix("/js/") || path.hasPrefix("/img/") || path.hasPrefix("/vendor/") || Self.rootFiles.contains(path)
        else {
            return try await next.respond(to: request)
        }
        let response: Response
        if path.hasPrefix("/vendor/") {
            guard request.method == .GET || request.method == .HEAD, let file = vendor.response(for: request) else { throw Abort(.notFound) }
            response = file
        } else {
            response = try await files.respond(to: request, chainingTo: next).get()
        }
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
