import FieldhouseKit
import Foundation

/// A small map drawn as SVG on the server: numbered markers over Web Mercator tiles when a tile
/// server is configured, over a plain grid otherwise. No script and no third-party library.
struct SVGMap {
    struct Marker {
        let coordinate: Coordinate
        /// One or two characters drawn in the pin ("★", "1").
        let symbol: String
        /// Read by screen readers and shown on hover.
        let title: String
        let primary: Bool
    }

    let width = 640.0
    let height = 360.0
    let markers: [Marker]
    /// The closest zoom a map draws (the tile proxy refuses anything closer).
    static let maxZoom = 16

    /// A tile's address from its zoom, x and y (`MapTiles.href`, signed), or nil for a plain grid.
    let tiles: (@Sendable (Int, Int, Int) -> String)?
    /// Routes drawn as lines under the markers (a workout's path, in pieces where parts are hidden).
    var paths: [[Coordinate]] = []
    /// The map's accessible name; by default it names the photos it shows.
    var label: String?

    /// The SVG markup. Every text in it is escaped here; the template includes it unescaped.
    var svg: String {
        guard !markers.isEmpty || paths.contains(where: { $0.count >= 2 }) else { return "" }
        let everything = markers.map(\.coordinate) + paths.joined()
        let zoom = WebMercator.fittingZoom(everything, width: width, height: height, padding: 40, maxZoom: Self.maxZoom)
        let extent = everything.map { WebMercator.pixel($0, zoom: zoom) }
        let pixels = markers.map { WebMercator.pixel($0.coordinate, zoom: zoom) }
        let centreX = (extent.map(\.x).min()! + extent.map(\.x).max()!) / 2
        let centreY = (extent.map(\.y).min()! + extent.map(\.y).max()!) / 2
        let left = centreX - width / 2, top = centreY - height / 2
        let label = self.label ?? tn("Map of where the photo was taken", "Map of where the {count} photos were taken", markers.count)

        var out =
            "<svg class=\"map\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(Self.escape(label))\" xmlns=\"http://www.w3.org/2000/svg\">"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#e9eef1\"/>"
        if let tiles {
            let count = Int(pow(2, Double(zoom)))
            let tile = WebMercator.tileSize
            for ty in Int(floor(top / tile))...Int(floor((top + height) / tile)) where (0..<count).contains(ty) {
                for tx in Int(floor(left / tile))...Int(floor((left + width) / tile)) {
                    let wrapped = ((tx % count) + count) % count
                    let href = tiles(zoom, wrapped, ty)
                    out +=
                        "<image href=\"\(Self.escape(href))\" x=\"\(Self.n(Double(tx) * tile - left))\" y=\"\(Self.n(Double(ty) * tile - top))\" width=\"256\" height=\"256\"/>"
                }
            }
        } else {
            for x in stride(from: 0.0, through: width, by: 40) {
                out += "<line x1=\"\(Self.n(x))\" y1=\"0\" x2=\"\(Self.n(x))\" y2=\"\(Int(height))\" stroke=\"#d3dbe1\"/>"
            }
            for y in stride(from: 0.0, through: height, by: 40) {
                out += "<line x1=\"0\" y1=\"\(Self.n(y))\" x2=\"\(Int(width))\" y2=\"\(Self.n(y))\" stroke=\"#d3dbe1\"/>"
            }
        }
        if !paths.isEmpty {
            var d = ""
            for path in paths {
                for (index, point) in path.enumerated() {
                    let p = WebMercator.pixel(point, zoom: zoom)
                    d += (index == 0 ? "M" : "L") + Self.n(p.x - left) + " " + Self.n(p.y - top)
                }
            }
            out += "<path d=\"\(d)\" fill=\"none\" stroke=\"#fff\" stroke-width=\"6\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
            out += "<path d=\"\(d)\" fill=\"none\" stroke=\"#c2410c\" stroke-width=\"3.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
        }
        // Secondary markers first, so the main one is drawn on top.
        for (marker, pixel) in zip(markers, pixels).sorted(by: { !$0.0.primary && $1.0.primary }) {
            let x = pixel.x - left, y = pixel.y - top
            let fill = marker.primary ? "#b3261e" : "#0b6e4f"
            out += "<g class=\"marker\"><title>\(Self.escape(marker.title))</title>"
            out += "<path d=\"M\(Self.n(x)) \(Self.n(y))l-11 -18a13 13 0 1 1 22 0z\" fill=\"\(fill)\" stroke=\"#fff\" stroke-width=\"2\"/>"
            out +=
                "<text x=\"\(Self.n(x))\" y=\"\(Self.n(y - 22))\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"700\" fill=\"#fff\">\(Self.escape(marker.symbol))</text></g>"
        }
        if tiles != nil {
            out +=
                "<text x=\"\(Int(width) - 4)\" y=\"\(Int(height) - 4)\" text-anchor=\"end\" font-size=\"11\" fill=\"#17202a\" paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\">\(Self.escape(t("© OpenStreetMap contributors")))</text>"
        }
        return out + "</svg>"
    }

    private static func n(_ value: Double) -> String { value.tenths }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
