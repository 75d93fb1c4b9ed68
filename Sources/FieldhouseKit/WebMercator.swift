import Foundation

/// The Web Mercator projection of slippy-map tiles (EPSG:3857 as used by OpenStreetMap): at zoom
/// `z` the world is a square of 256·2^z pixels, x growing east from 180° W, y growing south from
/// about 85.0511° N.
public enum WebMercator {
    public static let tileSize = 256.0
    public static let maxLatitude = 85.05112878

    /// World pixel position of `point` at `zoom`.
    public static func pixel(_ point: Coordinate, zoom: Int) -> (x: Double, y: Double) {
        let scale = tileSize * pow(2, Double(zoom))
        let lat = min(max(point.latitude, -maxLatitude), maxLatitude) * .pi / 180
        let x = (point.longitude + 180) / 360 * scale
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * scale
        return (x, y)
    }

    /// The inverse of `pixel`.
    public static func coordinate(x: Double, y: Double, zoom: Int) -> Coordinate {
        let scale = tileSize * pow(2, Double(zoom))
        let lon = x / scale * 360 - 180
        let n = Double.pi - 2 * .pi * y / scale
        let lat = atan(sinh(n)) * 180 / .pi
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// The largest zoom (at most `maxZoom`) at which every point fits in `width`×`height` pixels
    /// with `padding` pixels to spare on each side.
    public static func fittingZoom(_ points: [Coordinate], width: Double, height: Double, padding: Double, maxZoom: Int = 17) -> Int {
        guard points.count > 1 else { return min(maxZoom, 15) }
        // A pixel at zoom z is the one at zoom 0 times 2^z, exactly (a power of two), so the extent
        // is measured once rather than at every zoom tried: a workout's map has 1,500 points.
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for point in points {
            let p = pixel(point, zoom: 0)
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        for zoom in stride(from: maxZoom, through: 0, by: -1) {
            let scale = pow(2, Double(zoom))
            if (maxX - minX) * scale <= width - 2 * padding && (maxY - minY) * scale <= height - 2 * padding { return zoom }
        }
        return 0
    }
}
