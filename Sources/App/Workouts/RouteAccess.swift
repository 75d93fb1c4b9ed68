import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Who sees a route: its owner always; friends (people the owner follows who follow back) when it is
/// shared with friends; everyone when public. Others get a 404. Everyone but the owner sees it
/// without the parts inside the owner's privacy zones, on the page, in the list and in the GPX.
struct RouteAccess {
    let route: Route
    let isOwner: Bool
    /// The points this viewer may see, in pieces where a privacy zone cuts the route.
    let pieces: [[Coordinate]]

    static func load(_ req: Request, id raw: String?) async throws -> RouteAccess {
        guard let raw, let id = UUID(uuidString: raw), let route = try await Route.find(id, on: req.db),
            try await canView(route, viewer: req.currentUser?.id, on: req.db)
        else { throw Abort(.notFound) }
        let isOwner = req.currentUser?.id == route.$user.id
        let zones = isOwner ? [] : try await SavedPrivacyZone.zones(of: route.$user.id, on: req.db)
        return RouteAccess(route: route, isOwner: isOwner, pieces: PrivacyTrim.visible(route.shape.points, zones: zones))
    }

    static func canView(_ route: Route, viewer: UUID?, on db: any Database) async throws -> Bool {
        if route.visibility == .public || route.$user.id == viewer { return true }
        guard let viewer, route.visibility == .friends else { return false }
        return try await PeopleQueries.friendIDs(of: viewer, on: db).contains(route.$user.id)
    }

    /// The same rule in SQL over `routes r`, for lists.
    static func visible(to viewer: UUID?) -> SQLQueryString {
        guard let viewer else { return "r.visibility = 'public'" }
        return """
            (r.user_id = \(bind: viewer) OR r.visibility = 'public' OR (r.visibility = 'friends'
              AND EXISTS (SELECT 1 FROM follows a WHERE a.follower_id = \(bind: viewer) AND a.followee_id = r.user_id AND a.status = 'accepted')
              AND EXISTS (SELECT 1 FROM follows b WHERE b.follower_id = r.user_id AND b.followee_id = \(bind: viewer) AND b.status = 'accepted')))
            """
    }
}

/// Routes starting near a point that a viewer may see, nearest first.
enum RouteSearch {
    struct Hit {
        let route: Route
        /// Where it starts for this viewer: the first point outside the owner's privacy zones.
        let start: Coordinate
        let metres: Double
    }

    static func near(_ centre: Coordinate, radius: Double, viewer: UUID?, limit: Int, on db: any Database) async throws -> [Hit] {
        let box = Geo.boundingBox(around: centre, radius: radius)
        var sql: SQLQueryString = "SELECT r.id FROM routes r WHERE r.start_lat >= \(bind: box.minLatitude) AND r.start_lat <= \(bind: box.maxLatitude) AND ("
        for (index, range) in box.longitudeRanges.enumerated() {
            if index > 0 { sql.appendLiteral(" OR ") }
            sql.appendInterpolation(raw: "(r.start_lon >= ")
            sql.appendInterpolation(bind: range.lowerBound)
            sql.appendInterpolation(raw: " AND r.start_lon <= ")
            sql.appendInterpolation(bind: range.upperBound)
            sql.appendInterpolation(raw: ")")
        }
        sql.appendLiteral(") AND ")
        sql.appendInterpolation(RouteAccess.visible(to: viewer))
        // The nearest 500 by a flat projection: the exact distance (from the start this viewer may
        // see) is measured below.
        let scale = cos(centre.latitude * .pi / 180)
        sql.appendInterpolation(raw: " ORDER BY (r.start_lat - ")
        sql.appendInterpolation(bind: centre.latitude)
        sql.appendInterpolation(raw: ") * (r.start_lat - ")
        sql.appendInterpolation(bind: centre.latitude)
        sql.appendInterpolation(raw: ") + (r.start_lon - ")
        sql.appendInterpolation(bind: centre.longitude)
        sql.appendInterpolation(raw: ") * (r.start_lon - ")
        sql.appendInterpolation(bind: centre.longitude)
        sql.appendInterpolation(raw: ") * ")
        sql.appendInterpolation(bind: scale * scale)
        sql.appendInterpolation(raw: ", r.id LIMIT 500")
        let ids = try await (db as! any SQLDatabase).raw(sql).all().map { try $0.decode(column: "id", as: UUID.self) }
        guard !ids.isEmpty else { return [] }
        let routes = try await Route.query(on: db).filter(\.$id ~~ ids).all()
        var zones: [UUID: [PrivacyZone]] = [:]
        var hits: [Hit] = []
        for route in routes {
            let owner = route.$user.id
            if owner != viewer, zones[owner] == nil { zones[owner] = try await SavedPrivacyZone.zones(of: owner, on: db) }
            let pieces = PrivacyTrim.visible(route.shape.points, zones: owner == viewer ? [] : zones[owner] ?? [])
            guard let start = pieces.first?.first else { continue }
            let metres = Geo.distance(centre, start)
            if metres <= radius { hits.append(Hit(route: route, start: start, metres: metres)) }
        }
        return Array(hits.sorted { ($0.metres, $0.route.name) < ($1.metres, $1.route.name) }.prefix(limit))
    }
}
