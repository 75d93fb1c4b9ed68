import Vapor

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
        let secret = serverSecret
        return MapTiles(token: { secret.token(for: "map-area", $0) }, route: tileRoute)
    }
}
