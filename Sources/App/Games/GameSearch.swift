import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Games anyone may find near a point: upcoming pick-up games and team games asking for
/// substitutes, never a private team's games.
enum GameSearch {
    /// Rows a search may return: the predicate of the partial indexes `CreateGame` builds.
    static let findable = CreateGame.findable

    struct Hit {
        let id: UUID
        let metres: Double
        let exact: Bool
    }

    /// Nearest first, soonest on ties. The database measures and orders on a local flat projection
    /// (degrees of longitude scaled by the cosine of the centre's latitude; under 0.5% off within
    /// 50 km) and returns only the page, so a dense city costs an index range scan, not thousands
    /// of rows decoded in Swift. Distances shown are then exact great-circle ones. Searches use
    /// `find_lat`/`find_lon`, which hold only an area for protected games.
    static func search(
        _ query: FindQuery, centre: Coordinate, excludingTeams: Set<UUID>, limit: Int, offset: Int,
        now: Date, on db: any Database
    ) async throws -> [Hit] {
        // Nearest first, so a page that fills up within a smaller circle is the same page the whole
        // circle gives: everything the larger circle adds lies farther out than all of it. In a dense
        // city the first circle (2 km) holds the page, and the database sorts a few hundred games by
        // distance instead of every game within 50 km.
        let asked = query.radiusKm * 1000
        // Soonest first: any game in the whole circle may come first, so it is searched at once.
        var radius = query.byTime ? asked : min(asked, 2_000)
        while true {
            let hits = try await search(
                query, centre: centre, radius: radius, excludingTeams: excludingTeams, limit: limit, offset: offset, now: now, on: db)
            if hits.count >= limit || radius >= asked { return hits }
            radius = min(asked, radius * 5)
        }
    }

    private static func search(
        _ query: FindQuery, centre: Coordinate, radius: Double, excludingTeams: Set<UUID>, limit: Int, offset: Int,
        now: Date, on db: any Database
    ) async throws -> [Hit] {
        let box = Geo.boundingBox(around: centre, radius: radius)
        var sql: SQLQueryString = "SELECT id, find_lat, find_lon, privacy FROM (SELECT id, find_lat, find_lon, privacy, starts_at, "
        sql.appendInterpolation(GeoSQL.squaredDistance(from: centre, latitude: "find_lat", longitude: "find_lon"))
        sql.appendInterpolation(raw: " AS d2 FROM games WHERE \(findable) AND ")
        sql.appendInterpolation(GeoSQL.inside(box, latitude: "find_lat", longitude: "find_lon"))
        sql.appendInterpolation(raw: " AND starts_at >= ")
        sql.appendInterpolation(bind: max(query.from ?? now, now))
        if let to = query.to {
            sql.appendInterpolation(raw: " AND starts_at < ")
            sql.appendInterpolation(bind: to)
        }
        if let sport = query.sport {
            sql.appendInterpolation(raw: " AND sport = ")
            sql.appendInterpolation(bind: sport.rawValue)
        }
        // A game open to any level, age or gender matches every filter value.
        for (column, value, any) in [
            ("skill", query.skill?.rawValue, TeamSkill.any.rawValue),
            ("age_group", query.ageGroup?.rawValue, AgeGroup.any.rawValue),
            ("gender", query.gender?.rawValue, TeamGender.any.rawValue),
        ] {
            guard let value, value != any else { continue }
            sql.appendInterpolation(raw: " AND \(column) IN (")
            sql.appendInterpolation(bind: value)
            sql.appendInterpolation(raw: ", ")
            sql.appendInterpolation(bind: any)
            sql.appendInterpolation(raw: ")")
        }
        if !excludingTeams.isEmpty {
            sql.appendInterpolation(raw: " AND (team_id IS NULL OR team_id NOT IN (")
            for (index, team) in excludingTeams.sorted(by: { $0.uuidString < $1.uuidString }).enumerated() {
                if index > 0 { sql.appendLiteral(", ") }
                sql.appendInterpolation(bind: team)
            }
            sql.appendLiteral("))")
        }
        sql.appendInterpolation(raw: ") AS candidates WHERE d2 <= ")
        sql.appendInterpolation(bind: GeoSQL.squaredDegrees(radius))
        sql.appendInterpolation(raw: query.byTime ? " ORDER BY starts_at, d2, id" : " ORDER BY d2, starts_at, id")
        sql.appendInterpolation(raw: " LIMIT \(limit) OFFSET \(offset)")

        return try await db.sql.raw(sql).all().map { row in
            let point = Coordinate(
                latitude: try row.decode(column: "find_lat", as: Double.self),
                longitude: try row.decode(column: "find_lon", as: Double.self))
            return Hit(
                id: try row.decode(column: "id", as: UUID.self), metres: Geo.distance(centre, point),
                exact: try row.decode(column: "privacy", as: String.self) == Team.Privacy.public.rawValue)
        }
    }

    /// One search result as pages and the API show it.
    struct Result: Codable {
        let id: String
        let url: String
        let kind: String
        let title: String
        let sport: String
        let level: String
        let privacy: String
        let startsAt: Date
        let timeZone: String
        let when: String
        let place: String?
        let latitude: Double?
        let longitude: Double?
        let exactPlace: Bool
        let distanceMetres: Int
        let distance: String
        let capacity: Int?
        let joined: Int
        let full: Bool
        let subsWanted: Int
    }

    /// The details of one page of hits, in the hits' order.
    static func results(for hits: [Hit], imperial: Bool, on db: any Database) async throws -> [Result] {
        guard !hits.isEmpty else { return [] }
        let rows = try await db.sql.select()
            .columns(
                SQLColumn("id", table: "g"), SQLColumn("kind", table: "g"), SQLColumn("sport", table: "g"),
                SQLColumn("privacy", table: "g"), SQLColumn("age_group", table: "g"), SQLColumn("gender", table: "g"),
                SQLColumn("skill", table: "g"), SQLColumn("starts_at", table: "g"), SQLColumn("duration_minutes", table: "g"),
                SQLColumn("time_zone", table: "g"), SQLColumn("place_name", table: "g"),
                SQLColumn("find_lat", table: "g"), SQLColumn("find_lon", table: "g"), SQLColumn("capacity", table: "g"), SQLColumn("joined_count", table: "g"),
                SQLColumn("subs_needed", table: "g"), SQLColumn("subs_filled", table: "g"), SQLColumn("opponent_name", table: "g")
            )
            .column(SQLColumn("name", table: "t"), as: "team_name")
            .from(SQLAlias(SQLIdentifier(Game.schema), as: SQLIdentifier("g")))
            .join(
                SQLAlias(SQLIdentifier(Team.schema), as: SQLIdentifier("t")), method: SQLJoinMethod.left, on: SQLColumn("team_id", table: "g"), .equal,
                SQLColumn("id", table: "t")
            )
            .where(SQLColumn("id", table: "g"), .in, SQLBind.group(hits.map(\.id)))
            .all()
        var byID: [UUID: any SQLRow] = [:]
        for row in rows { byID[try row.decode(column: "id", as: UUID.self)] = row }
        return try hits.compactMap { hit in
            guard let row = byID[hit.id] else { return nil }
            let kind = Game.Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .pickup
            let sport = try row.decode(column: "sport", as: String.self)
            let sportLabel = Sport(rawValue: sport)?.label ?? sport
            let start = try row.decode(column: "starts_at", as: Date.self)
            let zone = try row.decode(column: "time_zone", as: String.self)
            let minutes = try row.decode(column: "duration_minutes", as: Int.self)
            let capacity = try row.decode(column: "capacity", as: Int?.self)
            let joined = try row.decode(column: "joined_count", as: Int.self)
            let shown = Coordinate(
                latitude: try row.decode(column: "find_lat", as: Double.self),
                longitude: try row.decode(column: "find_lon", as: Double.self))
            let teamName = try row.decode(column: "team_name", as: String?.self)
            let opponent = try row.decode(column: "opponent_name", as: String?.self)
            return Result(
                id: SiteURL.id(hit.id), url: SiteURL.game(hit.id).path, kind: kind.rawValue,
                title: Game.title(kind: kind, sportLabel: sportLabel, teamName: teamName, opponent: opponent),
                sport: sportLabel,
                level: levelLabel(
                    ageGroup: try row.decode(column: "age_group", as: String.self),
                    gender: try row.decode(column: "gender", as: String.self),
                    skill: try row.decode(column: "skill", as: String.self)),
                privacy: Team.Privacy(rawValue: try row.decode(column: "privacy", as: String.self))?.shortLabel ?? "",
                startsAt: start, timeZone: zone,
                when: "\(GameTime.shortDay(start, zone: zone)) · \(GameTime.range(start, start.addingTimeInterval(Double(minutes) * 60), zone: zone))",
                place: hit.exact ? try row.decode(column: "place_name", as: String?.self) : nil,
                latitude: shown.latitude, longitude: shown.longitude, exactPlace: hit.exact,
                distanceMetres: Int(hit.metres.rounded()),
                distance: Format.proximity(hit.metres, imperial: imperial),
                capacity: capacity, joined: joined, full: capacity.map { joined >= $0 } ?? false,
                subsWanted: kind == .team
                    ? max(0, try row.decode(column: "subs_needed", as: Int.self) - (try row.decode(column: "subs_filled", as: Int.self))) : 0
            )
        }
    }
}
