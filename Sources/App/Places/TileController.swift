import AsyncHTTPClient
import Foundation
import Vapor

/// `/tiles/{z}/{x}/{y}.png?s=…`: the map tiles behind every map, from the tile server in
/// `FIELDHOUSE_TILE_URL`, fetched once and kept under `<data>/tiles`. Browsers only ever ask this
/// server, so no third party learns who looks at which street (a private workout's map included),
/// and the tile server is asked for each tile once, as the OpenStreetMap usage policy asks.
///
/// Only tiles inside the area of a map this site drew are fetched (`MapTiles` signs each map's
/// area), up to the closest zoom a map may be zoomed to, at a bounded rate per visitor (`TileLimiter`), one fetch per tile however many ask at
/// once (`TileFetches`), into a folder of bounded size (`TileStore`); a redirect from the tile
/// server is not followed (the HTTP client is set so in `configure`).
struct TileController: RouteCollection {
    /// A map tile is 5–50 KB; anything far bigger is not one.
    static let maxBytes = 1_048_576

    func boot(routes: any RoutesBuilder) throws {
        // A tile's address says where someone looked at a map: the log keeps only the route.
        routes.get(PlacePath.tile, use: tile).holdsSecret()
    }

    /// The tile a path names, checked: a zoom the maps draw and x, y inside it.
    static func tile(z: String?, x: String?, file: String?) -> (z: Int, x: Int, y: Int)? {
        guard let z = z.flatMap({ Int($0) }), (0...MapTiles.maxZoom).contains(z), let x = x.flatMap({ Int($0) }),
            let file, file.hasSuffix(".png"), let y = Int(file.dropLast(4)), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y)
        else { return nil }
        return (z, x, y)
    }

    func tile(req: Request) async throws -> Response {
        let app = req.application
        guard let upstream = app.config.tileURL, let tiles = app.mapTiles,
            let (z, x, y) = Self.tile(z: req.parameters.get("z"), x: req.parameters.get("x"), file: req.parameters.get("file")),
            tiles.verifies(area: req.query[String.self, at: "a"], signature: req.query[String.self, at: "s"], z: z, x: x, y: y)
        else { throw Abort(.notFound) }
        // Every tile a visitor asks for counts, kept or not: otherwise a visitor whose fetches are
        // used up could still learn, tile by tile, which streets anyone's maps have shown (a kept
        // tile would answer 200, any other 429).
        let client = TileLimiter.client(req.clientAddress)
        guard app.tileViewLimiter.allow(client, now: req.now) else { throw Self.tooMany }
        let name = TileStore.name(z: z, x: x, y: y)
        let store = app.tileStore
        if store.use(name, now: req.now) {
            if let response = try? await req.fileio.asyncStreamFile(at: store.folder + "/" + name, mediaType: .png) {
                return Self.cached(response)
            }
            store.forget(name)
        }
        guard app.tileLimiter.allow(client, now: req.now) else { throw Self.tooMany }
        let url = upstream.replacingOccurrences(of: "{z}", with: String(z)).replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
        let http = app.http.client.shared
        let userAgent = "Fieldhouse/\(AppConfig.version) (+\(app.config.baseURL))"
        let logger = req.logger, now = req.now
        let bytes = try await app.tileFetches.run(name) {
            let bytes = try await Self.fetch(url, userAgent: userAgent, client: http, logger: logger, name: name)
            try store.keep(bytes, as: name, now: now)
            return bytes
        }
        var headers = HTTPHeaders()
        headers.contentType = .png
        return Self.cached(Response(status: .ok, headers: headers, body: .init(buffer: ByteBuffer(bytes: bytes))))
    }

    /// The tile from the tile server: a 200 answer with a PNG of at most `maxBytes`, read no further.
    static func fetch(_ url: String, userAgent: String, client: HTTPClient, logger: Logger, name: String) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        // The usage policy asks each application to say who it is.
        request.headers.add(name: "User-Agent", value: userAgent)
        do {
            let answer = try await client.execute(request, timeout: .seconds(10))
            guard answer.status == .ok else {
                logger.warning("Map tile \(name): the tile server answered \(answer.status.code)")
                throw Abort(.badGateway, reason: t("The map tile could not be fetched."))
            }
            let body = try await answer.body.collect(upTo: maxBytes)
            let bytes = Array(body.readableBytesView)
            guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
                logger.warning("Map tile \(name): the tile server answered without a PNG tile")
                throw Abort(.badGateway, reason: t("The map tile could not be fetched."))
            }
            return bytes
        } catch let abort as Abort {
            throw abort
        } catch {
            logger.warning("Map tile \(name) could not be fetched: \(error)")
            throw Abort(.badGateway, reason: t("The map tile could not be fetched."))
        }
    }

    static var tooMany: Abort {
        Abort(.tooManyRequests, headers: ["Retry-After": "5"], reason: t("Too many map tiles at once; try again in a few seconds."))
    }

    /// Tiles change rarely and say nothing about who asked: any cache may keep them for a week.
    static func cached(_ response: Response) -> Response {
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=604800")
        return response
    }
}

extension Application {
    private struct TileStoreKey: StorageKey { typealias Value = TileStore }
    private struct TileLimiterKey: StorageKey { typealias Value = TileLimiter }
    private struct TileViewLimiterKey: StorageKey { typealias Value = TileLimiter }
    private struct TileFetchesKey: StorageKey { typealias Value = TileFetches }

    /// Set once by `Places.boot`, before any request.
    var tileStore: TileStore {
        get { storage[TileStoreKey.self]! }
        set { storage[TileStoreKey.self] = newValue }
    }

    var tileLimiter: TileLimiter {
        get { storage[TileLimiterKey.self]! }
        set { storage[TileLimiterKey.self] = newValue }
    }

    /// Tiles each visitor may ask for, kept ones included (no bucket for everyone together).
    var tileViewLimiter: TileLimiter {
        get { storage[TileViewLimiterKey.self]! }
        set { storage[TileViewLimiterKey.self] = newValue }
    }

    var tileFetches: TileFetches {
        get { storage[TileFetchesKey.self]! }
        set { storage[TileFetchesKey.self] = newValue }
    }
}
