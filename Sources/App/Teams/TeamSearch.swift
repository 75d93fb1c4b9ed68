import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Teams looking for players near a point; private teams never appear.
enum TeamSearch {
    struct Row: Decodable {
        let slug, name, sport, privacy, age_group, gender, skill: String
        let latitude, longitude: Double
    }

    struct Hit {
        let row: Row
        let metres: Double
    }

    /// Latitude/longitude box on the index first, then the exact great-circle distance.
    static func search(_ query: FindQuery, centre: Coordinate, limit: Int, offset: Int, on db: any Database) async throws -> [Hit] {
        let radius = query.radiusKm * 1000
        // A protected team is found, measured and shown at its area (0.1°), never its ground: the box
        // is widened by more than half a cell, so which teams come back depends only on their areas,
        // and no choice of centre and radius can bisect the exact place.
        var box = Geo.boundingBox(around: centre, radius: radius)
        box.minLatitude = max(-90, box.minLatitude - 0.06)
        box.maxLatitude = min(90, box.maxLatitude + 0.06)
        box.longitudeRanges = box.longitudeRanges.map { max(-180, $0.lowerBound - 0.06)...min(180, $0.upperBound + 0.06) }
        let sql = db.sql
        // Two steps: positions of every candidate (three columns, read straight from the index),
        // then the details of just the page shown. Decoding whole rows for every candidate in a big
        // city cost more than the query itself.
        var select = sql.select()
            .columns("slug", "latitude", "longitude", "privacy")
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
                let lon = try? row.decode(column: "longitude", as: Double.self),
                let privacy = try? row.decode(column: "privacy", as: String.self)
            else { return nil }
            let ground = Coordinate(latitude: lat, longitude: lon)
            let metres = Geo.distance(centre, privacy == Team.Privacy.public.rawValue ? ground : PlaceView.area(of: ground))
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

    static func results(for hits: [Hit], imperial: Bool) -> [Result] {
        hits.map { hit in
            Result(
                slug: hit.row.slug, name: hit.row.name, sport: Sport(rawValue: hit.row.sport)?.label ?? hit.row.sport,
                level: levelLabel(ageGroup: hit.row.age_group, gender: hit.row.gender, skill: hit.row.skill),
                privacy: Team.Privacy(rawValue: hit.row.privacy)?.shortLabel ?? "",
                distance: Format.proximity(hit.metres, imperial: imperial)
            )
        }
    }
}
