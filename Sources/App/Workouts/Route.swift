import FieldhouseKit
import Fluent
import Foundation

/// A planned path without times (a GPX route, or a track nobody timed): something to follow, not
/// a workout. Points are kept as compact JSON, as they are only ever read whole. Private until its
/// owner shares it (`RouteAccess`).
final class Route: Model, @unchecked Sendable {
    static let schema = "routes"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "name") var name: String
    @Field(key: "distance_m") var distance: Double
    /// `[[lat, lon, ele|null], …]`.
    @Field(key: "points") var points: String
    @Field(key: "point_count") var pointCount: Int
    @Field(key: "sha256") var sha256: String
    @Enum(key: "visibility") var visibility: Visibility
    /// The first point, for "routes starting near here".
    @OptionalField(key: "start_lat") var startLat: Double?
    @OptionalField(key: "start_lon") var startLon: Double?
    /// Metres climbed along the route (`RouteShape.climb`).
    @Field(key: "climb_m") var climb: Double
    /// When its owner first shared it: its moment in the feed.
    @OptionalField(key: "shared_at") var sharedAt: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(user: UUID, name: String, shape: RouteShape, sha256: String) {
        self.$user.id = user
        self.name = name
        self.distance = shape.distance
        self.points = shape.json
        self.pointCount = shape.points.count
        self.sha256 = sha256
        self.visibility = .private
        self.startLat = shape.points.first?.latitude
        self.startLon = shape.points.first?.longitude
        self.climb = shape.climb
    }

    enum Visibility: String, Codable, CaseIterable, Sendable {
        /// Only its owner.
        case `private`
        /// People the owner follows who follow back.
        case friends
        case `public`

        var label: String {
            switch self {
            case .private: t("Only me")
            case .friends: t("Friends (people I follow who follow me back)")
            case .public: t("Everyone")
            }
        }
    }

    var shape: RouteShape { RouteShape(json: points) }
}

/// A route's points with their elevations, read from or written to the stored JSON.
struct RouteShape {
    var points: [Coordinate]
    var elevations: [Double?]
    /// Indexes where a new piece begins (the tracks of a GPX that lie apart): nothing joins it to
    /// the piece before, neither in the length nor on the map.
    var segmentStarts: Set<Int>

    init(points: [Coordinate], elevations: [Double?], segmentStarts: Set<Int> = []) {
        self.points = points
        self.elevations = elevations
        self.segmentStarts = segmentStarts.filter { $0 > 0 && $0 < points.count }
    }

    /// Reads `[[lat, lon, ele|null], …]`, where a point that begins a new piece carries a fourth
    /// value, 1 (routes stored before pieces were kept have none: one piece); anything unreadable
    /// reads as no points.
    init(json: String) {
        let rows = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[Any]] ?? []
        var points: [Coordinate] = [], elevations: [Double?] = [], starts: Set<Int> = []
        points.reserveCapacity(rows.count)
        var pending = false
        for row in rows {
            if row.count > 3, (row[3] as? NSNumber)?.intValue == 1 { pending = true }
            guard row.count >= 2, let lat = (row[0] as? NSNumber)?.doubleValue, let lon = (row[1] as? NSNumber)?.doubleValue else { continue }
            let coordinate = Coordinate(latitude: lat, longitude: lon)
            guard coordinate.isValid else { continue }
            if pending && !points.isEmpty { starts.insert(points.count) }
            pending = false
            points.append(coordinate)
            elevations.append(row.count > 2 ? (row[2] as? NSNumber)?.doubleValue : nil)
        }
        self.points = points
        self.elevations = elevations
        self.segmentStarts = starts
    }

    var json: String {
        var json = "["
        json.reserveCapacity(points.count * 32)
        for (index, point) in points.enumerated() {
            if index > 0 { json += "," }
            json += "[\(point.latitude),\(point.longitude),\(elevations[index].map { String($0) } ?? "null")\(segmentStarts.contains(index) ? ",1" : "")]"
        }
        return json + "]"
    }

    /// The length of the pieces, without the gaps between them.
    var distance: Double { PlannedRoute.length(points, segmentStarts: segmentStarts) }

    /// Distance from the start at each point, in metres (nothing added across a gap between pieces).
    var cumulativeDistance: [Double] {
        var out = [Double](repeating: 0, count: points.count)
        for i in points.indices.dropFirst() {
            out[i] = out[i - 1] + (segmentStarts.contains(i) ? 0 : Geo.distance(points[i - 1], points[i]))
        }
        return out
    }

    /// The pieces to draw, each of at least two points.
    var pieces: [[Coordinate]] {
        var pieces: [[Coordinate]] = []
        var current: [Coordinate] = []
        for (index, point) in points.enumerated() {
            if segmentStarts.contains(index) {
                if current.count >= 2 { pieces.append(current) }
                current = []
            }
            current.append(point)
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// Metres climbed: rises counted only once they pass 3 m, so the jitter of a GPS or a rounded
    /// elevation model does not add up to a mountain.
    var climb: Double {
        var total = 0.0
        var base: Double?
        for elevation in elevations {
            guard let elevation, elevation.isFinite else { continue }
            guard let low = base else { base = elevation; continue }
            if elevation < low {
                base = elevation
            } else if elevation - low >= 3 {
                total += elevation - low
                base = elevation
            }
        }
        return total
    }
}
