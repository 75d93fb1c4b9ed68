import FieldhouseKit
import Foundation
import Testing

@Suite struct GeoTests {
    static let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
    static let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
    static let newYork = Coordinate(latitude: 40.7128, longitude: -74.0060)
    static let sydney = Coordinate(latitude: -33.8688, longitude: 151.2093)
    static let copenhagen = Coordinate(latitude: 55.6761, longitude: 12.5683)
    static let aarhus = Coordinate(latitude: 56.1629, longitude: 10.2039)

    /// Published great-circle distances; the sphere must be within 0.5% of them.
    @Test(arguments: [
        (london, paris, 343_500.0),
        (london, newYork, 5_570_000.0),
        (newYork, sydney, 15_990_000.0),
        (copenhagen, aarhus, 157_000.0),
    ])
    func knownCityDistances(a: Coordinate, b: Coordinate, expected: Double) {
        let measured = Geo.distance(a, b)
        #expect(abs(measured - expected) / expected < 0.005, "\(measured) vs \(expected)")
        #expect(abs(Geo.distance(b, a) - measured) < 0.001)
    }

    @Test func distanceAcrossTheAntimeridianIsShort() {
        let fijiWest = Coordinate(latitude: -17.0, longitude: 179.9)
        let fijiEast = Coordinate(latitude: -17.0, longitude: -179.9)
        let d = Geo.distance(fijiWest, fijiEast)
        #expect(d > 20_000 && d < 22_000, "\(d)")
    }

    @Test func distancesAtThePoles() {
        let north = Coordinate(latitude: 90, longitude: 0)
        #expect(Geo.distance(north, Coordinate(latitude: 90, longitude: 135)) < 0.001, "every longitude is the same pole")
        let quarter = Geo.distance(north, Coordinate(latitude: 0, longitude: 45))
        #expect(abs(quarter - Geo.earthRadius * .pi / 2) < 1)
        #expect(abs(Geo.distance(north, Coordinate(latitude: -90, longitude: 0)) - Geo.earthRadius * .pi) < 1)
    }

    @Test func boundingBoxContainsTheWholeCircle() {
        let centre = Self.copenhagen
        let box = Geo.boundingBox(around: centre, radius: 50_000)
        #expect(box.longitudeRanges.count == 1)
        for bearing in stride(from: 0.0, to: 360.0, by: 15.0) {
            let point = Self.destination(from: centre, metres: 49_900, bearing: bearing)
            #expect(box.contains(point), "bearing \(bearing)")
        }
        #expect(!box.contains(Self.aarhus))
    }

    @Test func boundingBoxSplitsAtTheAntimeridian() {
        let box = Geo.boundingBox(around: Coordinate(latitude: -17, longitude: 179.9), radius: 50_000)
        #expect(box.longitudeRanges.count == 2)
        #expect(box.contains(Coordinate(latitude: -17, longitude: -179.8)))
        #expect(box.contains(Coordinate(latitude: -17, longitude: 179.7)))
        #expect(!box.contains(Coordinate(latitude: -17, longitude: 0)))
    }

    @Test func boundingBoxNearAPoleTakesEveryLongitude() {
        let box = Geo.boundingBox(around: Coordinate(latitude: 89.9, longitude: 10), radius: 50_000)
        #expect(box.longitudeRanges == [-180...180])
        #expect(box.maxLatitude == 90)
        #expect(box.contains(Coordinate(latitude: 89.8, longitude: -170)))
    }

    /// The point `metres` away along `bearing` degrees (spherical forward formula).
    static func destination(from start: Coordinate, metres: Double, bearing: Double) -> Coordinate {
        let δ = metres / Geo.earthRadius, θ = bearing * .pi / 180
        let φ1 = start.latitude * .pi / 180, λ1 = start.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return Coordinate(latitude: φ2 * 180 / .pi, longitude: λ2 * 180 / .pi)
    }
}

@Suite struct WebMercatorTests {
    @Test func matchesTheSlippyMapTileNumbers() {
        // Copenhagen City Hall Square at zoom 15 lies in OSM tile x=17527, y=10256 (from the tile formula).
        let p = WebMercator.pixel(Coordinate(latitude: 55.676098, longitude: 12.568337), zoom: 15)
        #expect(Int(p.x / 256) == 17527)
        #expect(Int(p.y / 256) == 10256)
        let origin = WebMercator.pixel(Coordinate(latitude: 0, longitude: 0), zoom: 0)
        #expect(abs(origin.x - 128) < 1e-9 && abs(origin.y - 128) < 1e-9)
    }

    @Test func inverseReturnsThePoint() {
        let point = Coordinate(latitude: -33.856784, longitude: 151.215297)
        let p = WebMercator.pixel(point, zoom: 12)
        let back = WebMercator.coordinate(x: p.x, y: p.y, zoom: 12)
        #expect(abs(back.latitude - point.latitude) < 1e-9 && abs(back.longitude - point.longitude) < 1e-9)
    }

    @Test func zoomFitsThePoints() {
        let a = Coordinate(latitude: 55.676, longitude: 12.568), b = Coordinate(latitude: 55.686, longitude: 12.588)
        let zoom = WebMercator.fittingZoom([a, b], width: 640, height: 360, padding: 30)
        let pa = WebMercator.pixel(a, zoom: zoom), pb = WebMercator.pixel(b, zoom: zoom)
        #expect(abs(pa.x - pb.x) <= 580 && abs(pa.y - pb.y) <= 300)
        let closer = WebMercator.pixel(a, zoom: zoom + 1), closerB = WebMercator.pixel(b, zoom: zoom + 1)
        #expect(abs(closer.x - closerB.x) > 580 || abs(closer.y - closerB.y) > 300)
    }
}
