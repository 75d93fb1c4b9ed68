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
    /// The points this viewer may see, in pieces: the route's own (tracks that lie apart), cut
    /// again where a privacy zone hides part of one.
    let pieces: [[Coordinate]]
    /// Whether a privacy zone hides part of the route from this viewer.
    let isTrimmed: Bool

    /// The route as a viewer with these privacy `zones` to respect (none for its owner) sees it.
    init(route: Route, isOwner: Bool, zones: [PrivacyZone]) {
        self.route = route
        self.isOwner = isOwner
        let whole = route.shape.pieces
        pieces = zones.isEmpty ? whole : whole.flatMap { PrivacyTrim.visible($0, zones: zones) }
        isTrimmed = pieces != whole
    }

    /// The length this viewer may know: the whole route's, or only what they see of it, so the
    /// difference cannot tell how far the route runs inside a zone.
    var visibleLength: Double {
        isTrimmed ? pieces.reduce(0) { total, piece in total + RouteShape(points: piece, elevations: []).distance } : route.distance
    }

    /// Metres climbed, only when the whole route is shown.
    var visibleClimb: Double? { isTrimmed ? nil : route.climb }

    static func load(_ req: Request, id raw: String?) async throws -> RouteAccess {
        guard let raw, let id = UUID(uuidString: raw), let route = try await Route.find(id, on: req.db),
            try await canView(route, viewer: req.currentUser?.id, today: req.clock.today, on: req.db)
        else { throw Abort(.notFound) }
        let isOwner = req.currentUser?.id == route.$user.id
        let zones = isOwner ? [] : try await SavedPrivacyZone.zones(of: route.$user.id, on: req.db)
        return RouteAccess(route: route, isOwner: isOwner, zones: zones)
    }

    /// A route of a person under 16 reaches friends at most, whatever is stored (one made public
    /// before a birth date was corrected), as their workouts reach followers at most.
    static func canView(_ route: Route, viewer: UUID?, today: CalendarDate, on db: any Database) async throws -> Bool {
        if route.$user.id == viewer { return true }
        var reach = route.visibility
        if reach == .public, try await User.find(route.$user.id, on: db)?.isUnder16(on: today) ?? true { reach = .friends }
        if reach == .public { return true }
        guard let viewer, reach == .friends else { return false }
        return try await PeopleQueries.friendIDs(of: viewer, on: db).contains(route.$user.id)
    }

    /// The same rule in SQL over `routes r`, for lists.
    static func visible(to viewer: UUID?, today: CalendarDate) -> SQLQueryString {
        let everyone: SQLQueryString = """
            (r.visibility = 'public' AND r.user_id IN (
              SELECT id FROM users WHERE birth_date IS NOT NULL AND birth_date <= \(bind: User.sixteenCutoff(on: today))))
            """
        guard let viewer else { return everyone }
        return """
            (r.user_id = \(bind: viewer) OR \(everyone) OR (r.visibility IN ('public', 'friends')
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
        /// What this viewer may know of its length and climbing (see `RouteAccess`).
        let length: Double
        let climb: Double?
    }

    /// How far a route's stored first point may lie from the first point a viewer sees: across the
    /// widest privacy zone (`PrivacyZone.hiding`: a radius, its offset and slack, twice).
    static let hiddenReach = 2 * (PrivacyZone.radii.upperBound + PrivacyZone.offsets.upperBound + 250)

    /// Candidates come from a box around `centre` widened by `hiddenReach`, so whether a route is
    /// found depends only on where its visible start is, never on the hidden one (its owner's home).
    static func near(_ centre: Coordinate, radius: Double, viewer: UUID?, today: CalendarDate, limit: Int, on db: any Database) async throws -> [Hit] {
        let box = Geo.boundingBox(around: centre, radius: radius + hiddenReach)
        var sql: SQLQueryString = "SELECT r.id FROM routes r WHERE "
        sql.appendInterpolation(GeoSQL.inside(box, latitude: "r.start_lat", longitude: "r.start_lon"))
        sql.appendLiteral(" AND ")
        sql.appendInterpolation(RouteAccess.visible(to: viewer, today: today))
        // The nearest 200 by a flat projection: the exact distance (from the start this viewer may
        // see) is measured below.
        sql.appendLiteral(" ORDER BY ")
        sql.appendInterpolation(GeoSQL.squaredDistance(from: centre, latitude: "r.start_lat", longitude: "r.start_lon"))
        sql.appendInterpolation(raw: ", r.id LIMIT 200")
        let ids = try await db.sql.raw(sql).all().map { try $0.decode(column: "id", as: UUID.self) }
        guard !ids.isEmpty else { return [] }
        let routes = try await Route.query(on: db).filter(\.$id ~~ ids).all()
        let owners = Set(routes.map(\.$user.id)).subtracting(viewer.map { [$0] } ?? [])
        let zones = try await SavedPrivacyZone.zones(of: Array(owners), on: db)
        var hits: [Hit] = []
        for route in routes {
            let owner = route.$user.id
            let seen = RouteAccess(route: route, isOwner: owner == viewer, zones: owner == viewer ? [] : zones[owner] ?? [])
            guard let start = seen.pieces.first?.first else { continue }
            let metres = Geo.distance(centre, start)
            guard metres <= radius else { continue }
            hits.append(Hit(route: route, start: start, metres: metres, length: seen.visibleLength, climb: seen.visibleClimb))
        }
        return Array(hits.sorted { ($0.metres, $0.route.name) < ($1.metres, $1.route.name) }.prefix(limit))
    }
}
