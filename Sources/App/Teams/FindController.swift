import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/find`: teams looking for players near a point. (The games issue adds pick-up games here.)
struct FindController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("find", use: find)
    }

    struct Query {
        var centre: Coordinate?
        var radiusKm: Double = 25
        var sport: Sport?
        var skill: TeamSkill?
        var ageGroup: AgeGroup?
        var gender: TeamGender?
    }

    struct Row: Decodable {
        let slug, name, sport, privacy, age_group, gender, skill: String
        let latitude, longitude: Double
    }

    struct Hit {
        let row: Row
        let metres: Double
    }

    /// Latitude/longitude box on the index first, then the exact great-circle distance.
    static func search(_ query: Query, centre: Coordinate, limit: Int, offset: Int, on db: any Database) async throws -> [Hit] {
        let radius = query.radiusKm * 1000
        let box = Geo.boundingBox(around: centre, radius: radius)
        let sql = db as! any SQLDatabase
        // Two steps: positions of every candidate (three columns, read straight from the index),
        // then the details of just the page shown. Decoding whole rows for every candidate in a big
        // city cost more than the query itself.
        var select = sql.select()
            .columns("slug", "latitude", "longitude")
            .from(Team.schema)
            .where("latitude", .greaterThanOrEqual, box.minLatitude)
            .where("latitude", .lessThanOrEqual, box.maxLatitude)
            .where("privacy", .notEqual, Team.Privacy.private.rawValue)
            .where("looking_for_players", .equal, true)
        select = select.where { group in
            var group = group
            for range in box.longitudeRanges {
                group = group.orWhere { inner in
                    inner.where("longitude", .greaterThanOrEqual, range.lowerBound).where("longitude", .lessThanOrEqual, range.upperBound)
                }
            }
            return group
        }
        if let sport = query.sport { select = select.where("sport", .equal, sport.rawValue) }
        // A team open to any level, age or gender matches every filter value.
        if let skill = query.skill, skill != .any { select = select.where("skill", .in, [skill.rawValue, TeamSkill.any.rawValue]) }
        if let age = query.ageGroup, age != .any { select = select.where("age_group", .in, [age.rawValue, AgeGroup.any.rawValue]) }
        if let gender = query.gender, gender != .any { select = select.where("gender", .in, [gender.rawValue, TeamGender.any.rawValue]) }

        let candidates = try await select.all().compactMap { row -> (slug: String, metres: Double)? in
            guard let slug = try? row.decode(column: "slug", as: String.self),
                  let lat = try? row.decode(column: "latitude", as: Double.self),
                  let lon = try? row.decode(column: "longitude", as: Double.self) else { return nil }
            let metres = Geo.distance(centre, Coordinate(latitude: lat, longitude: lon))
            return metres <= radius ? (slug, metres) : nil
        }.sorted { ($0.metres, $0.slug) < ($1.metres, $1.slug) }
        let page = Array(candidates.dropFirst(offset).prefix(limit))
        guard !page.isEmpty else { return [] }
        let rows = try await sql.select()
            .columns("slug", "name", "sport", "privacy", "age_group", "gender", "skill", "latitude", "longitude")
            .from(Team.schema).where("slug", .in, page.map(\.slug))
            .all(decoding: Row.self)
        let bySlug = Dictionary(uniqueKeysWithValues: rows.map { ($0.slug, $0) })
        return page.compactMap { candidate in bySlug[candidate.slug].map { Hit(row: $0, metres: candidate.metres) } }
    }

    struct Result: Encodable {
        let slug: String
        let name: String
        let sport: String
        let level: String
        let privacy: String
        let distance: String
    }

    struct FindPage: Encodable {
        let layout: Layout
        let lat: String
        let lon: String
        let radius: String
        let sport: String
        let skill: String
        let age: String
        let gender: String
        let choices: Choices
        let needsLocation: Bool
        let errors: [String: String]
        let results: [Result]
        let pager: Pager
    }

    func find(req: Request) async throws -> Response {
        var query = Query()
        var errors: [String: String] = [:]
        let latText = req.query[String.self, at: "lat"] ?? ""
        let lonText = req.query[String.self, at: "lon"] ?? ""
        let lat = Attributes.coordinate(latText, range: -90...90, axis: "latitude")
        let lon = Attributes.coordinate(lonText, range: -180...180, axis: "longitude")
        errors["lat"] = lat.error
        errors["lon"] = lon.error
        if let latitude = lat.value, let longitude = lon.value {
            query.centre = Coordinate(latitude: latitude, longitude: longitude)
        } else if latText.isEmpty, lonText.isEmpty, let home = req.currentUser, let hlat = home.homeLat, let hlon = home.homeLon {
            query.centre = Coordinate(latitude: hlat, longitude: hlon)
        }
        let radiusText = req.query[String.self, at: "radius_km"] ?? ""
        if !radiusText.isEmpty {
            if let radius = Double(radiusText), radius.isFinite, (1...500).contains(radius) { query.radiusKm = radius }
            else { errors["radius_km"] = "Choose a distance between 1 and 500 km" }
        }
        func pick<T: RawRepresentable>(_ key: String, _ type: T.Type, message: String) -> T? where T.RawValue == String {
            let raw = req.query[String.self, at: key] ?? ""
            guard !raw.isEmpty else { return nil }
            guard let value = T(rawValue: raw) else { errors[key] = message; return nil }
            return value
        }
        query.sport = pick("sport", Sport.self, message: "Choose a sport from the list")
        query.skill = pick("skill", TeamSkill.self, message: "Choose a level from the list")
        query.ageGroup = pick("age", AgeGroup.self, message: "Choose an age group from the list")
        query.gender = pick("gender", TeamGender.self, message: "Choose from the list")

        var pager = Pager(req: req)
        var results: [Result] = []
        if errors.isEmpty, let centre = query.centre {
            let hits = try await Self.search(query, centre: centre, limit: pager.fetchLimit, offset: pager.offset, on: req.db)
            let shown = pager.finish(hits, path: "/find", query: [
                ("lat", latText), ("lon", lonText), ("radius_km", radiusText),
                ("sport", query.sport?.rawValue ?? ""), ("skill", query.skill?.rawValue ?? ""),
                ("age", query.ageGroup?.rawValue ?? ""), ("gender", query.gender?.rawValue ?? ""),
            ])
            results = shown.map { hit in
                Result(
                    slug: hit.row.slug, name: hit.row.name, sport: Sport(rawValue: hit.row.sport)?.label ?? hit.row.sport,
                    level: levelLabel(ageGroup: hit.row.age_group, gender: hit.row.gender, skill: hit.row.skill),
                    privacy: Team.Privacy(rawValue: hit.row.privacy)?.shortLabel ?? "",
                    distance: Self.formatDistance(hit.metres, imperial: req.currentUser?.units == .imperial)
                )
            }
        }
        let page = FindPage(
            layout: req.layout(title: "Find a team", section: "teams"),
            lat: latText, lon: lonText, radius: radiusText.isEmpty ? "25" : radiusText,
            sport: query.sport?.rawValue ?? "", skill: query.skill?.rawValue ?? "",
            age: query.ageGroup?.rawValue ?? "", gender: query.gender?.rawValue ?? "",
            choices: Choices(), needsLocation: query.centre == nil && errors.isEmpty,
            errors: errors, results: results, pager: pager
        )
        return try await req.view.render("find/index", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    static func formatDistance(_ metres: Double, imperial: Bool) -> String {
        if imperial {
            let miles = metres / 1609.344
            return miles < 10 ? String(format: "%.1f mi", miles) : String(format: "%.0f mi", miles)
        }
        if metres < 1000 { return "\(Int((metres / 10).rounded()) * 10) m" }
        let km = metres / 1000
        return km < 10 ? String(format: "%.1f km", km) : String(format: "%.0f km", km)
    }
}
