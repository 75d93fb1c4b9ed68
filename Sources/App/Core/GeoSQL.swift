import FieldhouseKit
import Foundation
import SQLKit

/// The SQL of "near a point" that every search shares: a bounding box an index on (latitude,
/// longitude) answers, and a squared distance on a local flat projection to order by (degrees of
/// longitude scaled by the cosine of the centre's latitude; under 0.5 % off within 50 km).
enum GeoSQL {
    /// `lat >= … AND lat <= … AND ((lon >= … AND lon <= …) OR …)` for `box`, on the named columns.
    static func inside(_ box: Geo.BoundingBox, latitude: String, longitude: String) -> SQLQueryString {
        var sql: SQLQueryString = ""
        sql.appendInterpolation(raw: "\(latitude) >= ")
        sql.appendInterpolation(bind: box.minLatitude)
        sql.appendInterpolation(raw: " AND \(latitude) <= ")
        sql.appendInterpolation(bind: box.maxLatitude)
        sql.appendLiteral(" AND (")
        for (index, range) in box.longitudeRanges.enumerated() {
            if index > 0 { sql.appendLiteral(" OR ") }
            sql.appendInterpolation(raw: "(\(longitude) >= ")
            sql.appendInterpolation(bind: range.lowerBound)
            sql.appendInterpolation(raw: " AND \(longitude) <= ")
            sql.appendInterpolation(bind: range.upperBound)
            sql.appendInterpolation(raw: ")")
        }
        sql.appendLiteral(")")
        return sql
    }

    /// The squared flat distance from `centre`, in squared degrees of latitude.
    static func squaredDistance(from centre: Coordinate, latitude: String, longitude: String) -> SQLQueryString {
        let scale = cos(centre.latitude * .pi / 180)
        var sql: SQLQueryString = ""
        sql.appendInterpolation(raw: "(\(latitude) - ")
        sql.appendInterpolation(bind: centre.latitude)
        sql.appendInterpolation(raw: ") * (\(latitude) - ")
        sql.appendInterpolation(bind: centre.latitude)
        sql.appendInterpolation(raw: ") + (\(longitude) - ")
        sql.appendInterpolation(bind: centre.longitude)
        sql.appendInterpolation(raw: ") * (\(longitude) - ")
        sql.appendInterpolation(bind: centre.longitude)
        sql.appendInterpolation(raw: ") * ")
        sql.appendInterpolation(bind: scale * scale)
        return sql
    }

    /// A radius in metres as squared degrees of latitude, to compare with `squaredDistance`.
    static func squaredDegrees(_ metres: Double) -> Double {
        let degrees = metres / 111_195.0
        return degrees * degrees
    }
}
