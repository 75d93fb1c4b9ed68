import Foundation

/// The map tiles this server hands out. Each map is given an area of tiles, signed with the
/// server's secret, that its addresses carry (`?a=…&s=…`): the tile proxy fetches only tiles inside
/// an area some map of this site was given, at any zoom up to `maxZoom`, so a person can zoom and
/// drag a map around what it shows (only so deep that an area never opens more than
/// `Area.tilesPerZoom` tiles at one zoom), but nobody can make the proxy fetch and store tiles of
/// their choosing (a whole country at zoom 16) by asking for them.
struct MapTiles: Sendable {
    /// The closest zoom a person may zoom a map to; the proxy refuses anything closer.
    static let maxZoom = 18

    /// A rectangle of tiles at one zoom. A tile at a closer zoom is inside when the tile it lies in
    /// at `zoom` is; a tile at a farther zoom is inside when it overlaps the rectangle.
    struct Area: Equatable, Sendable {
        let zoom: Int
        let minX: Int
        let minY: Int
        let maxX: Int
        let maxY: Int

        /// The tiles `margin` tiles around `x`, `y` ranges, inside the world at `zoom`.
        init(zoom: Int, x: ClosedRange<Int>, y: ClosedRange<Int>, margin: Int) {
            let last = (1 << zoom) - 1
            self.zoom = zoom
            minX = min(max(x.lowerBound - margin, 0), last)
            maxX = min(max(x.upperBound + margin, 0), last)
            minY = min(max(y.lowerBound - margin, 0), last)
            maxY = min(max(y.upperBound + margin, 0), last)
        }

        /// `zoom.minX.minY.maxX.maxY`, as addresses carry it.
        var text: String { "\(zoom).\(minX).\(minY).\(maxX).\(maxY)" }

        /// An area read back from an address; nil for anything that is not one.
        init?(text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard text.utf8.count <= 64, parts.count == 5 else { return nil }
            // Only the form `text` writes: "+1" or "007" would name the same tiles at another address.
            let numbers = parts.compactMap { part in part.utf8.count <= 7 ? Int(part).flatMap { String($0) == part ? $0 : nil } : nil }
            guard numbers.count == 5, (0...MapTiles.maxZoom).contains(numbers[0]) else { return nil }
            let size = 1 << numbers[0]
            guard numbers[1...].allSatisfy({ (0..<size).contains($0) }), numbers[1] <= numbers[3], numbers[2] <= numbers[4] else { return nil }
            (zoom, minX, minY, maxX, maxY) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
        }

        /// The most tiles an area lets through at any one zoom. It bounds how deep a map may be
        /// zoomed: a workout's map (about 7 by 6 tiles) reaches zoom 18, a whole city's only a few
        /// levels below its drawing, so no signature opens the streets of a whole region.
        static let tilesPerZoom = 4096

        /// The closest zoom the area lets through (at least its own).
        var deepestZoom: Int {
            let count = (maxX - minX + 1) * (maxY - minY + 1)
            var deepest = zoom
            while deepest < MapTiles.maxZoom, count << (2 * (deepest + 1 - zoom)) <= Self.tilesPerZoom { deepest += 1 }
            return deepest
        }

        func contains(z: Int, x: Int, y: Int) -> Bool {
            guard (0...deepestZoom).contains(z) else { return false }
            if z >= zoom {
                let shift = z - zoom
                return (minX...maxX).contains(x >> shift) && (minY...maxY).contains(y >> shift)
            }
            let shift = zoom - z
            return x << shift <= maxX && ((x + 1) << shift) - 1 >= minX && y << shift <= maxY && ((y + 1) << shift) - 1 >= minY
        }
    }

    /// The server key's token for a text (`ServerSecret.token`), which signs each area. A function
    /// rather than the key, so this file needs nothing of Vapor (the fuzz harnesses draw maps).
    let token: @Sendable (String) -> String
    /// Where the feature that serves tiles answers (`tileRoute`), such as `/tiles`.
    let route: String

    /// The addresses of one area's tiles, signed once.
    struct Signed: Sendable {
        let route: String
        let query: String

        /// `<route>/{z}/{x}/{y}.png?a=…&s=…`, the address a map puts in its page.
        func url(z: Int, x: Int, y: Int) -> String { "\(route)/\(z)/\(x)/\(y).png" + query }

        /// Every tile of the area, with `{z}`, `{x}` and `{y}` left for the map layer to fill.
        var template: String { "\(route)/{z}/{x}/{y}.png" + query }
    }

    func signed(_ area: Area) -> Signed { Signed(route: route, query: "?a=\(area.text)&s=\(signature(area))") }

    func url(z: Int, x: Int, y: Int, in area: Area) -> String { signed(area).url(z: z, x: x, y: y) }

    func template(_ area: Area) -> String { signed(area).template }

    /// 22 characters of an HMAC: 132 bits, more than any guessing could cover.
    func signature(_ area: Area) -> String {
        String(token(area.text).prefix(22))
    }

    /// Whether the tile lies in an area this server signed, compared without stopping at the first difference.
    func verifies(area text: String?, signature: String?, z: Int, x: Int, y: Int) -> Bool {
        guard let text, let signature, let area = Area(text: text) else { return false }
        let expected = Array(self.signature(area).utf8), given = Array(signature.utf8)
        guard expected.count == given.count, zip(expected, given).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return false }
        return area.contains(z: z, x: x, y: y)
    }
}
