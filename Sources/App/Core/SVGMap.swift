import FieldhouseKit
import Foundation

/// A small map drawn as SVG on the server: numbered markers, lines and circles over Web Mercator
/// tiles when a tile server is configured, over a plain grid otherwise. It needs no script. With
/// tiles it also carries what it draws as data (`data-map`), from which `Public/js/maps.js` makes
/// the same map zoomable and draggable with Leaflet: the data holds only what the SVG draws, so a
/// map with script shows nothing the map without it does not.
struct SVGMap {
    struct Marker {
        let coordinate: Coordinate
        /// One or two characters drawn in the pin ("★", "1").
        let symbol: String
        /// Read by screen readers and shown on hover.
        let title: String
        let primary: Bool
        /// A page the marker stands for (a place's page on the places map), linked from the zoomable map.
        var href: String? = nil
    }

    /// A circle of `metres` around a point: a privacy zone.
    struct Circle {
        let centre: Coordinate
        let metres: Double
        let title: String
    }

    let width = 640.0
    let height = 360.0
    let markers: [Marker]
    /// The closest zoom a map is drawn at (a person may zoom the map closer, to `MapTiles.maxZoom`).
    static let maxZoom = 16

    /// The tiles under the map, or nil for a plain grid.
    let tiles: MapTiles?
    /// Routes drawn as lines under the markers (a workout's path, in pieces where parts are hidden).
    var paths: [[Coordinate]] = []
    /// The elapsed seconds of each point of `paths`, when the map is a workout's: the charts of the
    /// page then show on the zoomable map where a reading was taken.
    var times: [[Double]] = []
    var circles: [Circle] = []
    /// How many tiles around the drawing the zoomable map may show: a live track grows past its
    /// first drawing, so the live page asks for more.
    var areaMargin = 2
    /// Whether the zoomable map offers "Where I am" (the places map): the browser's position shown
    /// on the map, never sent to the server.
    var offersLocation = false
    /// The map's accessible name; by default it names the photos it shows.
    var label: String?

    /// The SVG markup. Every text in it is escaped here; the template includes it unescaped.
    var svg: String {
        guard !markers.isEmpty || !circles.isEmpty || paths.contains(where: { $0.count >= 2 }) else { return "" }
        let everything = markers.map(\.coordinate) + paths.joined() + circles.flatMap(\.extent)
        let zoom = WebMercator.fittingZoom(everything, width: width, height: height, padding: 40, maxZoom: Self.maxZoom)
        let extent = everything.map { WebMercator.pixel($0, zoom: zoom) }
        let pixels = markers.map { WebMercator.pixel($0.coordinate, zoom: zoom) }
        let centreX = (extent.map(\.x).min()! + extent.map(\.x).max()!) / 2
        let centreY = (extent.map(\.y).min()! + extent.map(\.y).max()!) / 2
        let left = centreX - width / 2, top = centreY - height / 2
        let label = self.label ?? tn("Map of where the photo was taken", "Map of where the {count} photos were taken", markers.count)

        let tile = WebMercator.tileSize
        let tileXs = Int(floor(left / tile))...Int(floor((left + width) / tile))
        let tileYs = Int(floor(top / tile))...Int(floor((top + height) / tile))
        // What a person may see around the drawing on the zoomable map: `areaMargin` tiles each way.
        let area = MapTiles.Area(zoom: zoom, x: tileXs, y: tileYs, margin: areaMargin)
        // One signature for the whole map: every tile's address and the layer's template carry it.
        let signed = tiles?.signed(area)
        let data = signed.map { signed in
            " data-map='" + layer(signed, area: area, centre: WebMercator.coordinate(x: centreX, y: centreY, zoom: zoom), zoom: zoom, label: label) + "'"
        }
        var out =
            "<svg class=\"map\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(Self.escape(label))\"\(data ?? "") xmlns=\"http://www.w3.org/2000/svg\">"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#e9eef1\"/>"
        if let signed {
            let count = Int(pow(2, Double(zoom)))
            for ty in tileYs where (0..<count).contains(ty) {
                for tx in tileXs {
                    let wrapped = ((tx % count) + count) % count
                    let href = signed.url(z: zoom, x: wrapped, y: ty)
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
        for circle in circles {
            let p = WebMercator.pixel(circle.centre, zoom: zoom)
            let radius = circle.metres / Self.metresPerPixel(at: circle.centre.latitude, zoom: zoom)
            out +=
                "<circle cx=\"\(Self.n(p.x - left))\" cy=\"\(Self.n(p.y - top))\" r=\"\(Self.n(radius))\" fill=\"#b3261e\" fill-opacity=\"0.2\" stroke=\"#b3261e\" stroke-width=\"2\"><title>\(Self.escape(circle.title))</title></circle>"
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

    /// What the zoomable map writes, in the page's language.
    private static func words(offersLocation: Bool) -> [String: String] {
        var words = [
            "keys": t("Zoom with + and −, move with the arrow keys."), "zoomIn": t("Zoom in"), "zoomOut": t("Zoom out"),
        ]
        if offersLocation {
            words["whereIAm"] = t("Where I am")
            words["youAreHere"] = t("You are here")
            words["outside"] = t("You are outside this map.")
        }
        return words
    }

    /// A coordinate in hundred-thousandths of a degree; 0 for a value that is not a number.
    private static func e5(_ part: KeyPath<Coordinate, Double>, _ point: Coordinate) -> Int {
        Int(exactly: (point[keyPath: part] * 1e5).rounded()) ?? 0
    }

    /// Metres on the ground per pixel of the map at `latitude` and `zoom`.
    static func metresPerPixel(at latitude: Double, zoom: Int) -> Double {
        2 * .pi * 6_378_137 * cos(latitude * .pi / 180) / (WebMercator.tileSize * pow(2, Double(zoom)))
    }

    /// What `maps.js` draws, as `AttributeJSON`: the same markers, lines and circles, the signed
    /// tile area and the view the SVG shows. Lines and their times are encoded polylines
    /// (`PolylineCode`), coordinates to five decimals (about a metre).
    private func layer(_ signed: MapTiles.Signed, area: MapTiles.Area, centre: Coordinate, zoom: Int, label: String) -> String {
        func at(_ point: Coordinate) -> String {
            "[\(Double(Self.e5(\.latitude, point)) / 1e5),\(Double(Self.e5(\.longitude, point)) / 1e5)]"
        }
        let string = AttributeJSON.string
        let north = WebMercator.coordinate(x: Double(area.minX) * WebMercator.tileSize, y: Double(area.minY) * WebMercator.tileSize, zoom: area.zoom)
        let south = WebMercator.coordinate(
            x: Double(area.maxX + 1) * WebMercator.tileSize, y: Double(area.maxY + 1) * WebMercator.tileSize, zoom: area.zoom)
        var layer = AttributeJSON()
        layer.add("tiles", string(signed.template))
        layer.add(
            "bounds",
            "[\(at(Coordinate(latitude: south.latitude, longitude: north.longitude))),\(at(Coordinate(latitude: north.latitude, longitude: south.longitude)))]")
        layer.add("centre", at(centre))
        layer.add("zoom", String(zoom))
        layer.add("maxZoom", String(area.deepestZoom))
        layer.add("label", string(label))
        layer.add("attribution", string(t("© OpenStreetMap contributors")))
        let lines = zip(paths.indices, paths).filter { $0.1.count >= 2 }
        layer.add("paths", strings: lines.map { _, line in PolylineCode.encode(line.map { [Self.e5(\.latitude, $0), Self.e5(\.longitude, $0)] }) })
        layer.add(
            "times",
            strings: times.count == paths.count
                ? lines.map { index, line in
                    times[index].count == line.count ? PolylineCode.encode(times[index].map { [Int(exactly: $0.rounded()) ?? 0] }) : ""
                } : [])
        let pins = markers.map { marker in
            "{\"at\":\(at(marker.coordinate)),\"symbol\":\(string(marker.symbol)),\"title\":\(string(marker.title)),\"primary\":\(marker.primary)"
                + (marker.href.map { ",\"href\":" + string($0) } ?? "") + "}"
        }
        layer.add("markers", "[" + pins.joined(separator: ",") + "]")
        let rings = circles.map { "{\"at\":\(at($0.centre)),\"metres\":\(AttributeJSON.number($0.metres.rounded())),\"title\":\(string($0.title))}" }
        layer.add("circles", "[" + rings.joined(separator: ",") + "]")
        if offersLocation { layer.add("locate", "true") }
        layer.add("words", "{" + Self.words(offersLocation: offersLocation).map { "\"\($0.key)\":\(string($0.value))" }.joined(separator: ",") + "}")
        return layer.json
    }

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

extension SVGMap.Circle {
    /// Four points on the circle, north, south, east and west, so that fitting the map keeps it whole.
    var extent: [Coordinate] {
        let dLat = metres / 111_320, dLon = metres / (111_320 * max(cos(centre.latitude * .pi / 180), 0.01))
        return [
            Coordinate(latitude: centre.latitude + dLat, longitude: centre.longitude),
            Coordinate(latitude: centre.latitude - dLat, longitude: centre.longitude),
            Coordinate(latitude: centre.latitude, longitude: centre.longitude + dLon),
            Coordinate(latitude: centre.latitude, longitude: centre.longitude - dLon),
        ]
    }
}
