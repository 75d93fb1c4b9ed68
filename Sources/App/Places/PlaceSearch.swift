import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Places near a point, nearest first: the latitude/longitude index answers a bounding box, the
/// database orders on a flat projection (as `GameSearch` does) and returns one page of ids.
enum PlaceSearch {
    struct Hit {
        let id: UUID
        let metres: Double
    }

    static func near(
        _ centre: Coordinate, radius: Double, kind: Place.Kind?, sport: Sport?, limit: Int, offset: Int, on db: any Database
    ) async throws -> [Hit] {
        let box = Geo.boundingBox(around: centre, radius: radius)
        let scale = cos(centre.latitude * .pi / 180)
        var sql: SQLQueryString = "SELECT id, latitude, longitude FROM (SELECT id, latitude, longitude, name, "
        sql.appendInterpolation(raw: "(latitude - ")
        sql.appendInterpolation(bind: centre.latitude)
        sql.appendInterpolation(raw: ") * (latitude - ")
        sql.appendInterpolation(bind: centre.latitude)
        sql.appendInterpolation(raw: ") + (longitude - ")
        sql.appendInterpolation(bind: centre.longitude)
        sql.appendInterpolation(raw: ") * (longitude - ")
        sql.appendInterpolation(bind: centre.longitude)
        sql.appendInterpolation(raw: ") * ")
        sql.appendInterpolation(bind: scale * scale)
        sql.appendInterpolation(raw: " AS d2 FROM places WHERE latitude >= ")
        sql.appendInterpolation(bind: box.minLatitude)
        sql.appendInterpolation(raw: " AND latitude <= ")
        sql.appendInterpolation(bind: box.maxLatitude)
        sql.appendLiteral(" AND (")
        for (index, range) in box.longitudeRanges.enumerated() {
            if index > 0 { sql.appendLiteral(" OR ") }
            sql.appendInterpolation(raw: "(longitude >= ")
            sql.appendInterpolation(bind: range.lowerBound)
            sql.appendInterpolation(raw: " AND longitude <= ")
            sql.appendInterpolation(bind: range.upperBound)
            sql.appendInterpolation(raw: ")")
        }
        sql.appendLiteral(")")
        if let kind {
            sql.appendInterpolation(raw: " AND kind = ")
            sql.appendInterpolation(bind: kind.rawValue)
        }
        if let sport {
            // Sports are stored between commas, so "running" never matches "orienteering-running".
            sql.appendInterpolation(raw: " AND sports LIKE ")
            sql.appendInterpolation(bind: "%," + sport.rawValue + ",%")
        }
        sql.appendInterpolation(raw: ") AS candidates WHERE d2 <= ")
        let degrees = radius / 111_195.0
        sql.appendInterpolation(bind: degrees * degrees)
        sql.appendInterpolation(raw: " ORDER BY d2, name, id LIMIT \(limit) OFFSET \(offset)")
        return try await (db as! any SQLDatabase).raw(sql).all().map { row in
            let point = Coordinate(
                latitude: try row.decode(column: "latitude", as: Double.self), longitude: try row.decode(column: "longitude", as: Double.self))
            return Hit(id: try row.decode(column: "id", as: UUID.self), metres: Geo.distance(centre, point))
        }
    }
}
