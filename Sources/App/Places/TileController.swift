import Foundation
import Vapor

/// `/tiles/{z}/{x}/{y}.png`: the map tiles behind every map, from the tile server in
/// `FIELDHOUSE_TILE_URL`, fetched once and kept under `<data>/tiles`. Browsers only ever ask this
/// server, so no third party learns who looks at which street (a private workout's map included),
/// and the tile server is asked for each tile once, as the OpenStreetMap usage policy asks.
struct TileController: RouteCollection {
    /// Tile servers stop at 19; nothing here draws closer.
    static let maxZoom = 19
    /// A map tile is 5–50 KB; anything far bigger is not one.
    static let maxBytes = 1_048_576

    func boot(routes: any RoutesBuilder) throws {
        routes.get("tiles", ":z", ":x", ":file", use: tile)
    }

    /// The tile a path names, checked: a zoom the servers have and x, y inside it.
    static func tile(z: String?, x: String?, file: String?) -> (z: Int, x: Int, y: Int)? {
        guard let z = z.flatMap({ Int($0) }), (0...maxZoom).contains(z), let x = x.flatMap({ Int($0) }),
            let file, file.hasSuffix(".png"), let y = Int(file.dropLast(4)), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y)
        else { return nil }
        return (z, x, y)
    }

    func tile(req: Request) async throws -> Response {
        let config = req.application.config
        guard let upstream = config.tileURL,
            let (z, x, y) = Self.tile(z: req.parameters.get("z"), x: req.parameters.get("x"), file: req.parameters.get("file"))
        else { throw Abort(.notFound) }
        let folder = config.dataDirectory + "/tiles/\(z)/\(x)"
        let path = folder + "/\(y).png"
        if !FileManager.default.fileExists(atPath: path) {
            let url = upstream.replacingOccurrences(of: "{z}", with: String(z)).replacingOccurrences(of: "{x}", with: String(x))
                .replacingOccurrences(of: "{y}", with: String(y))
            var headers = HTTPHeaders()
            // The usage policy asks each application to say who it is.
            headers.add(name: .userAgent, value: "Fieldhouse/\(AppConfig.version) (+\(config.baseURL))")
            let answer: ClientResponse
            do {
                answer = try await req.client.send(ClientRequest(method: .GET, url: URI(string: url), headers: headers, body: nil, timeout: .seconds(10)))
            } catch {
                req.logger.warning("Map tile \(z)/\(x)/\(y) could not be fetched: \(error)")
                throw Abort(.badGateway, reason: t("The map tile could not be fetched."))
            }
            guard answer.status == .ok, var body = answer.body, body.readableBytes <= Self.maxBytes,
                let bytes = body.readBytes(length: body.readableBytes), bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
            else {
                req.logger.warning("Map tile \(z)/\(x)/\(y): the tile server answered \(answer.status.code) without a PNG tile")
                throw Abort(.badGateway, reason: t("The map tile could not be fetched."))
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try PhotoFiles.writeAtomically(bytes, to: path)
        }
        let response = try await req.fileio.asyncStreamFile(at: path, mediaType: .png)
        // Tiles change rarely and say nothing about who asked: any cache may keep them for a week.
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=604800")
        return response
    }
}
