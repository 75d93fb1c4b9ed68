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
        var sql: SQLQueryString = "SELECT id, latitude, longitude FROM (SELECT id, latitude, longitude, name, "
        sql.appendInterpolation(GeoSQL.squaredDistance(from: centre, latitude: "latitude", longitude: "longitude"))
        sql.appendInterpolation(raw: " AS d2 FROM places WHERE ")
        sql.appendInterpolation(GeoSQL.inside(box, latitude: "latitude", longitude: "longitude"))
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
        sql.appendInterpolation(bind: GeoSQL.squaredDegrees(radius))
        sql.appendInterpolation(raw: " ORDER BY d2, name, id LIMIT \(limit) OFFSET \(offset)")
        return try await db.sql.raw(sql).all().map { row in
            let point = Coordinate(
                latitude: try row.decode(column: "latitude", as: Double.self), longitude: try row.decode(column: "longitude", as: Double.self))
            return Hit(id: try row.decode(column: "id", as: UUID.self), metres: Geo.distance(centre, point))
        }
    }
}

extension PlaceSearch {
    /// Places offering a reward (on some day) whose own circle holds `point`, nearest first: a box
    /// as wide as the largest radius a place may have, then each place's radius in SQL on the flat
    /// projection with a little to spare, and exactly here. At most `limit`.
    static func rewarding(around point: Coordinate, limit: Int, on db: any Database) async throws -> [Hit] {
        let box = Geo.boundingBox(around: point, radius: Place.radii.upperBound)
        var sql: SQLQueryString = "SELECT id, latitude, longitude, radius_m FROM (SELECT id, latitude, longitude, radius_m, "
        sql.appendInterpolation(GeoSQL.squaredDistance(from: point, latitude: "latitude", longitude: "longitude"))
        sql.appendInterpolation(raw: " AS d2 FROM places WHERE ")
        sql.appendInterpolation(GeoSQL.inside(box, latitude: "latitude", longitude: "longitude"))
        sql.appendInterpolation(raw: " AND reward_text <> '' AND reward_daily_cap > 0) AS candidates WHERE d2 <= radius_m * radius_m * ")
        sql.appendInterpolation(bind: GeoSQL.squaredDegrees(1) * 1.02)
        sql.appendInterpolation(raw: " ORDER BY d2, id LIMIT \(max(1, limit))")
        struct Row: Decodable {
            let id: UUID
            let latitude: Double
            let longitude: Double
            let radius_m: Double
        }
        return try await db.sql.raw(sql).all(decoding: Row.self).compactMap { row in
            let metres = Geo.distance(point, Coordinate(latitude: row.latitude, longitude: row.longitude))
            return metres <= row.radius_m ? Hit(id: row.id, metres: metres) : nil
        }
    }
}

extension PlaceSearch {
    /// Partner places: those whose reward for arriving by bike is offered today in their own zone,
    /// as their pages say, nearest to `centre` first (by name without one). At most `limit`, and
    /// whether there are more. A reward not yet begun or already over is its managers' business, so
    /// its place is no partner on any map until the day it starts.
    static func partners(
        near centre: Coordinate?, now: Date, limit: Int, on db: any Database
    ) async throws -> (places: [Place], more: Bool) {
        // Days are the places' own; a day either side of UTC's catches every zone, checked exactly below.
        let today = LocalTime.day(of: now, zone: "UTC")
        var sql: SQLQueryString = "SELECT id FROM places WHERE reward_text <> '' AND reward_daily_cap > 0"
        sql.appendInterpolation(raw: " AND (reward_from IS NULL OR reward_from <= ")
        sql.appendInterpolation(bind: today.adding(days: 1).description)
        sql.appendInterpolation(raw: ") AND (reward_until IS NULL OR reward_until >= ")
        sql.appendInterpolation(bind: today.adding(days: -1).description)
        sql.appendInterpolation(raw: ") ORDER BY ")
        if let centre {
            sql.appendInterpolation(GeoSQL.squaredDistance(from: centre, latitude: "latitude", longitude: "longitude"))
            sql.appendInterpolation(raw: ", ")
        }
        sql.appendInterpolation(raw: "name, id LIMIT \(max(1, limit) + 1)")
        let ids = try await db.sql.raw(sql).all().map { try $0.decode(column: "id", as: UUID.self) }
        let shown = Array(ids.prefix(max(1, limit)))
        let places = Dictionary(uniqueKeysWithValues: try await Place.query(on: db).filter(\.$id ~~ shown).all().map { ($0.id!, $0) })
        let offered = shown.compactMap { places[$0] }.filter { $0.reward(on: LocalTime.day(of: now, zone: $0.timeZone)) != nil }
        return (offered, ids.count > shown.count)
    }
}
