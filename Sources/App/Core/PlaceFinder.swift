import FieldhouseKit
import Fluent
import Vapor

/// A place a person can pick by typing its name: one Fieldhouse knows (a place on its map, a
/// listed team's ground, the person's home area) or a town from the `Gazetteer`.
struct PlaceMatch: Content, Equatable {
    let name: String
    /// What it is or where: "Place on Fieldhouse", "Your home area", "Portugal".
    let detail: String
    let latitude: Double
    let longitude: Double

    /// "Lisbon, Portugal": how a suggestion reads, and what a form sends back.
    var label: String { name + ", " + detail }
    var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A name and a point, as a feature's `knownPlaces` reads them.
struct NamedPoint: Decodable {
    let name: String
    let latitude: Double
    let longitude: Double
}

enum PlaceFinder {
    /// The places whose name starts with `query`: the searcher's own home area (`home`), then
    /// what the features know (`Feature.knownPlaces`), then towns. Nothing private is offered to
    /// anyone else.
    static func search(
        _ query: String, home: PlaceMatch?, limit: Int = 8, from features: [any Feature.Type], on db: any Database
    ) async throws -> [PlaceMatch] {
        let text = query.prefix(100).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let folded = Gazetteer.fold(text)
        guard folded.count >= 2 else { return [] }
        var found: [PlaceMatch] = []
        if let home, Gazetteer.fold(home.name).hasPrefix(folded) { found.append(home) }
        for feature in features {
            found += try await feature.knownPlaces(matching: text, limit: limit, on: db).filter { Gazetteer.fold($0.name).hasPrefix(folded) }
        }
        found += Gazetteer.shared.search(text, limit: limit).map {
            PlaceMatch(name: $0.name, detail: $0.country, latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude)
        }
        var seen: Set<String> = []
        return Array(found.filter { seen.insert($0.label).inserted }.prefix(limit))
    }

    /// The place a form's typed text means: a suggestion's label as it was offered, else the
    /// first place by that name.
    static func resolve(_ typed: String, home: PlaceMatch?, from features: [any Feature.Type], on db: any Database) async throws -> PlaceMatch? {
        let text = typed.prefix(200).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if let comma = text.range(of: ", ") {
            let name = String(text[..<comma.lowerBound]), detail = Gazetteer.fold(String(text[comma.upperBound...]))
            let named = try await search(name, home: home, limit: 50, from: features, on: db)
            if let match = named.first(where: { Gazetteer.fold($0.name) == Gazetteer.fold(name) && Gazetteer.fold($0.detail) == detail }) {
                return match
            }
        }
        let matches = try await search(text, home: home, limit: 50, from: features, on: db)
        return matches.first { Gazetteer.fold($0.name) == Gazetteer.fold(text) } ?? matches.first
    }
}
