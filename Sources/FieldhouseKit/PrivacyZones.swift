import Foundation

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

    /// How far the circle actually hidden is moved from the place, in metres: far enough that fitting
    /// a circle through where routes stop lands well away from home.
    public static let offsets = 160.0...300.0

    /// The circle hidden for a place: its centre moved a random 160–300 m in a random direction and its
    /// radius grown by as much, so the place's own circle stays wholly inside, and by a further random
    /// 0–250 m, so the fitted radius less the zone's does not tell how far the centre moved. Routes stop
    /// on this circle; three stopping points give its centre, which is not home.
    public static func hiding(_ place: Coordinate, radius: Double, using generator: inout some RandomNumberGenerator) -> PrivacyZone {
        let offset = Double.random(in: offsets, using: &generator)
        let bearing = Double.random(in: 0..<(2 * .pi), using: &generator)
        let metresPerDegree = 111_320.0
        let latitude = place.latitude + offset * cos(bearing) / metresPerDegree
        let longitude = place.longitude + offset * sin(bearing) / (metresPerDegree * max(cos(place.latitude * .pi / 180), 0.01))
        let slack = Double.random(in: 0...250, using: &generator)
        return PrivacyZone(centre: Coordinate(latitude: min(max(latitude, -90), 90), longitude: longitude), radius: radius + offset + slack)
    }

    public func contains(_ point: Coordinate) -> Bool { Geo.distance(centre, point) < radius }
}

/// Hides a path inside privacy zones: every point inside one is dropped, and where the path
/// leaves (or enters) a zone a point is put on the zone's edge, so the visible path starts and
/// ends at the circle rather than at the last point outside it. Nothing returned lies inside.
public enum PrivacyTrim {
    /// The visible pieces of `points` (each piece a run of consecutive points outside every zone).
    public static func visible(_ points: [Coordinate], zones: [PrivacyZone]) -> [[Coordinate]] {
        visible(points, seconds: points.map { _ in 0 }, zones: zones).map { $0.map(\.point) }
    }

    /// `visible` for a path whose points carry their seconds from the start; a point on a zone's
    /// edge takes the seconds of the visible point next to it. `seconds` has one entry per point.
    public static func visible(_ points: [Coordinate], seconds: [Double], zones: [PrivacyZone]) -> [[(point: Coordinate, seconds: Double)]] {
        let timed = zip(points, seconds).map { (point: $0, seconds: $1) }
        guard !zones.isEmpty else { return timed.isEmpty ? [] : [timed] }
        func inside(_ point: Coordinate) -> Bool { zones.contains { $0.contains(point) } }
        var pieces: [[(point: Coordinate, seconds: Double)]] = []
        var current: [(point: Coordinate, seconds: Double)] = []
        var previous: ((point: Coordinate, seconds: Double), Bool)?
        for item in timed {
            let hidden = inside(item.point)
            if let (last, lastHidden) = previous, lastHidden != hidden {
                if hidden {
                    current.append((edge(from: last.point, to: item.point, inside: inside), last.seconds))
                    pieces.append(current)
                    current = []
                } else {
                    current = [(edge(from: item.point, to: last.point, inside: inside), item.seconds)]
                }
            }
            if !hidden { current.append(item) }
            previous = (item, hidden)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces.filter { $0.count >= 2 }
    }

    /// The point between `outside` and `inside` where the path crosses a zone's edge, found by
    /// bisection and always taken from the outside (so it is never inside).
    static func edge(from outside: Coordinate, to insidePoint: Coordinate, inside: (Coordinate) -> Bool) -> Coordinate {
        var low = 0.0, high = 1.0 // low is outside, high inside
        func at(_ t: Double) -> Coordinate {
            Coordinate(
                latitude: outside.latitude + (insidePoint.latitude - outside.latitude) * t,
                longitude: outside.longitude + (insidePoint.longitude - outside.longitude) * t)
        }
        for _ in 0..<30 {
            let mid = (low + high) / 2
            if inside(at(mid)) { high = mid } else { low = mid }
        }
        return at(low)
    }
}

/// What others may know of a recorded time line that passes through privacy zones: only its
/// points from where the track leaves every zone to where it enters one again. Every sample in
/// between is dropped, heart rate and cadence too, so neither the time nor the pace inside a zone
/// is left to tell how far from home the visible part begins.
public struct VisibleTimeline: Equatable, Sendable {
    public var points: [TrackPoint]
    /// Times of points that begin a visible stretch after a hidden one: no distance across the gap.
    public var resumes: Set<Int64>
    /// Whether anything was left out.
    public var isTrimmed: Bool

    /// Samples before the first position take the first position's side, samples after a position
    /// take that position's; a time line without positions is left whole.
    public init(_ points: [TrackPoint], zones: [PrivacyZone]) {
        guard !zones.isEmpty, let firstPlace = points.first(where: { $0.coordinate != nil })?.coordinate else {
            self.points = points
            resumes = []
            isTrimmed = false
            return
        }
        func inside(_ place: Coordinate) -> Bool { zones.contains { $0.contains(place) } }
        var hidden = inside(firstPlace)
        var kept: [TrackPoint] = []
        kept.reserveCapacity(points.count)
        var resumes: Set<Int64> = []
        var dropped = false, gap = false
        for point in points {
            if let place = point.coordinate { hidden = inside(place) }
            if hidden {
                dropped = true
                gap = !kept.isEmpty
                continue
            }
            if gap { resumes.insert(point.time) }
            gap = false
            kept.append(point)
        }
        self.points = kept
        self.resumes = resumes
        isTrimmed = dropped
    }
}
