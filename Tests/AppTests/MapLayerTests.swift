@testable import App
import FieldhouseKit
import Foundation
import Testing
import Vapor

/// The zoomable layer over the server's maps (issue 46): Leaflet from this origin, and the data a
/// map hands it, which must hold no more than the SVG draws for the same viewer.
@Suite("Zoomable maps")
struct MapLayerTests {
    /// A tile server nobody asks while pages are only rendered.
    static let tiles: @Sendable (inout AppConfig) -> Void = { $0.tileURL = "http://127.0.0.1:9/{z}/{x}/{y}.png" }

    struct MapData: Decodable {
        struct Marker: Decodable {
            let at: [Double]
            let title: String
            let href: String?
        }
        let tiles: String
        let bounds: [[Double]]
        let zoom: Int
        let maxZoom: Int
        let label: String
        let paths: [String]
        let times: [String]
        let markers: [Marker]

        /// The lines as coordinates, each point with its seconds when the map has them.
        var lines: [[(point: Coordinate, seconds: Int?)]] {
            paths.enumerated().map { index, encoded in
                let points = PolylineCode.decode(encoded, columns: 2) ?? []
                let seconds = times.count > index ? PolylineCode.decode(times[index], columns: 1)?.map { $0[0] } : nil
                return points.enumerated().map { i, p in
                    (Coordinate(latitude: Double(p[0]) / 1e5, longitude: Double(p[1]) / 1e5), seconds.flatMap { i < $0.count ? $0[i] : nil })
                }
            }
        }
    }

    /// Every map's data on a page, read back from its attribute as the browser would.
    static func maps(in page: String) throws -> [MapData] {
        try page.matches(of: /data-map='([^']*)'/).map { match in
            let json = String(match.output.1).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            return try JSONDecoder().decode(MapData.self, from: Data(json.utf8))
        }
    }

    @Test func aWorkoutMapHandsOthersOnlyThePointsOutsideTheOwnersZones() async throws {
        try await withApp(config: Self.tiles) { app in
            let (ana, id) = try await WorkoutPageTests.anaWithWorkouts(app)
            let added = try await ana.post(
                "/settings/privacy-zones", [("name", "Home"), ("lat", "58.9591828"), ("lon", "5.7288390"), ("radius", "500")],
                csrfFrom: "/settings/privacy-zones")
            #expect(added.status == .seeOther)
            let home = PrivacyZone(centre: Coordinate(latitude: 58.9591828, longitude: 5.7288390), radius: 500)
            let workout = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
            workout.visibility = .public
            try await workout.save(on: app.db)
            let ben = app.browser()
            try await ben.signUp("ben")

            let theirs = try #require(try Self.maps(in: try await ben.get("/workouts/\(id)").body).first)
            let seen = theirs.lines.joined()
            #expect(seen.count > 100 && seen.allSatisfy { !home.contains($0.point) }, "no point of the zoomable map inside the zone")
            #expect(seen.allSatisfy { $0.seconds != nil } && theirs.lines.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0.seconds! <= $1.seconds! } })
            #expect(theirs.markers.allSatisfy { !home.contains(Coordinate(latitude: $0.at[0], longitude: $0.at[1])) })
            #expect(theirs.label.contains("parts near private places are hidden"))
            // The layer zooms exactly as deep as its signed area lets tiles through: street level for a run.
            let theirText = try #require(theirs.tiles.firstMatch(of: /\?a=([0-9.]+)&s=/)).output.1
            let theirArea = try #require(MapTiles.Area(text: String(theirText)))
            #expect(theirs.maxZoom == theirArea.deepestZoom && theirs.maxZoom >= 17)

            // The owner's map has the whole run, home included, second by second from the start (both
            // maps are thinned to about 1,500 points, so they are not compared by count).
            let hers = try #require(try Self.maps(in: try await ana.get("/workouts/\(id)").body).first)
            let whole = hers.lines.joined()
            #expect(whole.count >= 1_000 && whole.contains { home.contains($0.point) })
            #expect(whole.first?.seconds == 0 && (whole.last?.seconds ?? 0) > 2_800)
            // The tile area is the signed one the SVG's tiles use.
            let area = try #require(hers.tiles.firstMatch(of: /\?a=([0-9.]+)&s=/)).output.1
            #expect(try await ana.get("/workouts/\(id)").body.contains("?a=\(area)&amp;s="))
        }
        // Without a tile server the map stays the SVG alone.
        try await withApp { app in
            let (ana, id) = try await WorkoutPageTests.anaWithWorkouts(app)
            let page = try await ana.get("/workouts/\(id)")
            #expect(page.contains("<svg class=\"map\"") && !page.contains("data-map="))
        }
    }

    @Test func leafletComesFromThisSiteCompressedAndVersioned() async throws {
        let folder = AppConfig.debianLeaflet
        try #require(FileManager.default.fileExists(atPath: folder + "/leaflet.min.js"), "libjs-leaflet is installed by scripts/install-deps.sh")
        try await withApp(config: { $0.leafletDirectory = folder }) { app in
            let page = try await app.browser().get("/")
            let script = try #require(
                page.body.firstMatch(
                    of: /data-leaflet="(\/vendor\/leaflet\/leaflet\.js\?v=[0-9a-f]+)" data-leaflet-css="(\/vendor\/leaflet\/leaflet\.css\?v=[0-9a-f]+)"/))
            let plain = try Data(contentsOf: URL(fileURLWithPath: folder + "/leaflet.min.js"))

            let zipped = try await app.browser().get(String(script.output.1), headers: ["Accept-Encoding": "gzip, deflate, br"])
            #expect(zipped.status == .ok && zipped.headers.first(name: .contentEncoding) == "gzip" && zipped.bytes.starts(with: [0x1f, 0x8b]))
            #expect(zipped.bytes.count < plain.count / 3 && zipped.headers.first(name: .vary) == "Accept-Encoding")
            #expect(zipped.headers.first(name: .cacheControl) == "public, max-age=31536000, immutable")
            #expect(zipped.headers.first(name: .contentType)?.hasPrefix("text/javascript") == true)

            let refused = try await app.browser().get(String(script.output.1), headers: ["Accept-Encoding": "br, gzip;q=0"])
            #expect(refused.headers.first(name: .contentEncoding) == nil && Data(refused.bytes) == plain)
            let unzipped = try await app.browser().get(String(script.output.1))
            #expect(unzipped.status == .ok && unzipped.headers.first(name: .contentEncoding) == nil && Data(unzipped.bytes) == plain)
            let style = try await app.browser().get(String(script.output.2))
            #expect(style.status == .ok && style.headers.first(name: .contentType)?.hasPrefix("text/css") == true)
            // An old or missing version is revalidated; nothing else under /vendor/ exists.
            #expect(try await app.browser().get("/vendor/leaflet/leaflet.js").headers.first(name: .cacheControl) == "public, max-age=300, must-revalidate")
            for path in [
                "/vendor/leaflet/leaflet.min.js", "/vendor/leaflet/images/marker-icon.png", "/vendor/leaflet/../../etc/passwd", "/vendor/", "/vendor/x.js",
            ] {
                #expect(try await app.browser().get(path).status == .notFound, "\(path)")
            }
        }
        // Without Leaflet, pages do not ask for it.
        try await withApp { app in
            let page = try await app.browser().get("/")
            #expect(page.status == .ok && !page.contains("data-leaflet"))
        }
    }

    /// A tile area comes back from any address: whatever is not exactly one is refused, never trapped on.
    @Test func tileAreasReadOnlyWhatTheyWrite() {
        let area = MapTiles.Area(zoom: 15, x: 17_525...17_527, y: 10_255...10_256, margin: 2)
        #expect(area.text == "15.17523.10253.17529.10258" && MapTiles.Area(text: area.text) == area)
        for text in [
            "", "15", "15.1.2.3", "15.1.2.3.4.5", "19.0.0.0.0", "-1.0.0.0.0", "15.5.5.4.4", "15.0.0.32768.0", "15..0.0.0", "15.0.0.0.0.",
            "15.0x10.0.0.0", "15.+1.0.0.0", String(repeating: "9", count: 400), "15.0.0.0.99999999999999999999", "1e3.0.0.0.0", "15.٣.0.0.0",
        ] {
            #expect(MapTiles.Area(text: text) == nil, "\(text)")
        }
        // Closer in, a tile is inside when the tile it lies in is; farther out, when it overlaps.
        #expect(area.contains(z: 18, x: 17_523 * 8, y: 10_258 * 8 + 7) && !area.contains(z: 18, x: 17_530 * 8, y: 10_258 * 8))
        #expect(area.contains(z: 0, x: 0, y: 0) && area.contains(z: 12, x: 17_523 / 8, y: 10_253 / 8) && !area.contains(z: 12, x: 0, y: 0))
        #expect(!area.contains(z: 19, x: 17_523 * 16, y: 10_253 * 16) && !area.contains(z: -1, x: 0, y: 0))
        // An area opens at most 4,096 tiles at any zoom: a workout's map zooms to 18, a city's a few levels.
        #expect(area.deepestZoom == 18)
        let city = MapTiles.Area(zoom: 10, x: 547...549, y: 320...321, margin: 2)
        #expect(city.deepestZoom == 13 && city.contains(z: 13, x: 547 * 8, y: 320 * 8) && !city.contains(z: 14, x: 547 * 16, y: 320 * 16))
        #expect(MapTiles.Area(zoom: 0, x: 0...0, y: 0...0, margin: 0).deepestZoom == 6)
        for text in ["15.+17523.10253.17529.10258", "15.017523.10253.17529.10258", "015.17523.10253.17529.10258"] {
            #expect(MapTiles.Area(text: text) == nil, "\(text): only the form an address is written in")
        }
        // The area reaches no further than the world.
        let corner = MapTiles.Area(zoom: 3, x: 0...0, y: 7...7, margin: 2)
        #expect(corner.minX == 0 && corner.maxX == 2 && corner.minY == 5 && corner.maxY == 7)
    }
}
