import Foundation

/// A point on the Earth in degrees (WGS 84 latitude and longitude).
public struct Coordinate: Equatable, Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

/// Distances and search areas on a spherical Earth. A sphere is within 0.5% of the ellipsoid for
/// every distance Fieldhouse measures, and much cheaper.
public enum Geo {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine formula, stable for small distances).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// A latitude/longitude rectangle that contains every point within `radius` metres of `centre`,
    /// for a first, index-friendly filter. Near a pole it spans all longitudes; across the
    /// antimeridian it is split in two longitude ranges.
    public struct BoundingBox: Equatable, Sendable {
        public var minLatitude: Double
        public var maxLatitude: Double
        /// One range, or two when the box crosses ±180°.
        public var longitudeRanges: [ClosedRange<Double>]

        public func contains(_ point: Coordinate) -> Bool {
            (minLatitude...maxLatitude).contains(point.latitude)
                && longitudeRanges.contains { $0.contains(point.longitude) }
        }
    }

    public static func boundingBox(around centre: Coordinate, radius: Double) -> BoundingBox {
        let angular = radius / earthRadius
        let lat = centre.latitude * .pi / 180
        var minLat = lat - angular
        var maxLat = lat + angular
        let degrees = 180 / Double.pi
        // If the circle reaches a pole, every longitude is inside.
        if maxLat >= .pi / 2 || minLat <= -.pi / 2 {
            minLat = max(minLat, -.pi / 2)
            maxLat = min(maxLat, .pi / 2)
            return BoundingBox(minLatitude: minLat * degrees, maxLatitude: maxLat * degrees, longitudeRanges: [-180...180])
        }
        // Widest longitude reach of the circle (Bronshtein; see Jan Matuschek's derivation).
        let Δλ = asin(sin(angular) / cos(lat)) * degrees
        let west = centre.longitude - Δλ
        let east = centre.longitude + Δλ
        var ranges: [ClosedRange<Double>]
        if west < -180 {
            ranges = [(west + 360)...180, -180...east]
        } else if east > 180 {
            ranges = [west...180, -180...(east - 360)]
        } else {
            ranges = [west...east]
        }
        return BoundingBox(minLatitude: minLat * degrees, maxLatitude: maxLat * degrees, longitudeRanges: ranges)
    }
}

/// The area nearby friends see instead of a point: the centre of a grid cell about 1 km on each
/// side, so everyone in the cell shares one position and the exact point never leaves the server.
public enum NearbyCell {
    /// Cell height in degrees of latitude (about 1 km).
    public static let step = 0.009

    public static func snap(_ point: Coordinate) -> Coordinate {
        let row = (point.latitude / step).rounded(.down)
        let latitude = min(90, max(-90, (row + 0.5) * step))
        // Cells keep about 1 km across away from the equator; near the poles they stop narrowing.
        let width = step / max(0.05, cos(latitude * .pi / 180))
        let column = (point.longitude / width).rounded(.down)
        return Coordinate(latitude: latitude, longitude: (column + 0.5) * width)
    }

    /// From a cell's centre to its farthest corner, in metres (with room to spare).
    public static let reach = 800.0

    /// A distance between two cells as people are told it: to the half kilometre.
    public static func roundedKilometres(_ metres: Double) -> Double {
        guard metres.isFinite, metres >= 0 else { return 0 }
        return (metres / 500).rounded() / 2
    }
}
