import Vapor

/// The map tiles this server hands out. Each tile's address carries a signature made with the
/// server's secret, so the tile proxy fetches only tiles of maps the site itself drew: nobody can
/// make it fetch and store tiles of their choosing (a whole country at zoom 16) by asking for them.
struct MapTiles: Sendable {
    /// The closest zoom any map here draws (`SVGMap`); the proxy refuses anything closer.
    static let maxZoom = SVGMap.maxZoom

    let secret: ServerSecret

    /// `/tiles/{z}/{x}/{y}.png?s=…`, the address a map puts in its page.
    func url(z: Int, x: Int, y: Int) -> String {
        "/tiles/\(z)/\(x)/\(y).png?s=\(signature(z: z, x: x, y: y))"
    }

    /// `url` as the function `SVGMap` draws tiles with.
    var href: @Sendable (Int, Int, Int) -> String { { url(z: $0, x: $1, y: $2) } }

    /// 22 characters of an HMAC: 132 bits, more than any guessing could cover.
    func signature(z: Int, x: Int, y: Int) -> String {
        String(secret.token(for: "map-tile", "\(z)/\(x)/\(y)").prefix(22))
    }

    /// Whether `signature` is this tile's, compared without stopping at the first difference.
    func verifies(_ signature: String?, z: Int, x: Int, y: Int) -> Bool {
        guard let signature else { return false }
        let expected = Array(self.signature(z: z, x: x, y: y).utf8), given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension Application {
    /// The tiles behind every map, or nil when no tile server is configured (maps draw a plain grid).
    var mapTiles: MapTiles? { config.tileURL == nil ? nil : MapTiles(secret: serverSecret) }
}
