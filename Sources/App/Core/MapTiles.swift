import Vapor

/// The map tiles this server hands out. Each tile's address carries a signature made with the
/// server's secret, so the tile proxy fetches only tiles of maps the site itself drew: nobody can
/// make it fetch and store tiles of their choosing (a whole country at zoom 16) by asking for them.
struct MapTiles: Sendable {
    /// The closest zoom any map here draws (`SVGMap`); the proxy refuses anything closer.
    static let maxZoom = SVGMap.maxZoom

    let secret: ServerSecret
    /// Where the feature that serves tiles answers (`tileRoute`), such as `/tiles`.
    let route: String

    /// `<route>/{z}/{x}/{y}.png?s=…`, the address a map puts in its page.
    func url(z: Int, x: Int, y: Int) -> String {
        "\(route)/\(z)/\(x)/\(y).png?s=\(signature(z: z, x: x, y: y))"
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
    private struct TileRouteKey: StorageKey { typealias Value = String }

    /// The path under which a feature serves map tiles, set by that feature when it boots.
    var tileRoute: String? {
        get { storage[TileRouteKey.self] }
        set { storage[TileRouteKey.self] = newValue }
    }

    /// The tiles behind every map, or nil when no tile server is configured or no feature serves
    /// tiles (maps then draw a plain grid).
    var mapTiles: MapTiles? {
        guard config.tileURL != nil, let tileRoute else { return nil }
        return MapTiles(secret: serverSecret, route: tileRoute)
    }
}
