/// A circle around a place someone does not want shown (home, school).
public struct PrivacyZone: Equatable, Sendable {
    public var centre: Coordinate
    /// Metres.
    public var radius: Double

    public init(centre: Coordinate, radius: Double) {
        self.centre = centre
        self.radius = radius
    }

    public static let radii = 200.0...2000.0

    public func contains(_ point: Coordinate) -> Bool { Geo.distance(centre, point) < radius }
}

/// Hides a path inside privacy zones: every point inside one is dropped, and where the path
/// leaves (or enters) a zone a point is put on the zone's edge, so the visible path starts and
/// ends at the circle rather than at the last point outside it. Nothing returned lies inside.
public enum PrivacyTrim {
    /// The visible pieces of `points` (each piece a run of consecutive points outside every zone).
    public static func visible(_ points: [Coordinate], zones: [PrivacyZone]) -> [[Coordinate]] {
        guard !zones.isEmpty else { return points.isEmpty ? [] : [points] }
        func inside(_ point: Coordinate) -> Bool { zones.contains { $0.contains(point) } }
        var pieces: [[Coordinate]] = []
        var current: [Coordinate] = []
        var previous: (Coordinate, Bool)?
        for point in points {
            let hidden = inside(point)
            if let (last, lastHidden) = previous, lastHidden != hidden {
                let edge = hidden ? self.edge(from: last, to: point, inside: inside) : self.edge(from: point, to: last, inside: inside)
                if hidden {
                    current.append(edge)
                    pieces.append(current)
                    current = []
                } else {
                    current = [edge]
                }
            }
            if !hidden { current.append(point) }
            previous = (point, hidden)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces.filter { $0.count >= 2 }
    }

    /// The point between `outside` and `inside` where the path crosses a zone's edge, found by
    /// bisection and always taken from the outside (so it is never inside).
    static func edge(from outside: Coordinate, to insidePoint: Coordinate, inside: (Coordinate) -> Bool) -> Coordinate {
        var low = 0.0, high = 1.0 // low is outside, high inside
        func at(_ t: Double) -> Coordinate {
            Coordinate(latitude: outside.latitude + (insidePoint.latitude - outside.latitude) * t,
                       longitude: outside.longitude + (insidePoint.longitude - outside.longitude) * t)
        }
        for _ in 0..<30 {
            let mid = (low + high) / 2
            if inside(at(mid)) { high = mid } else { low = mid }
        }
        return at(low)
    }
}
