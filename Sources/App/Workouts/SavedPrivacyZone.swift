import FieldhouseKit
import Fluent
import Foundation

/// A circle someone drew around a place they do not want shown (home, school, a friend's house).
/// To anyone else, maps and exports of their workouts stop at its edge.
final class SavedPrivacyZone: Model, @unchecked Sendable {
    static let schema = "privacy_zones"
    static let maxPerPerson = 10

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "name") var name: String
    @Field(key: "lat") var latitude: Double
    @Field(key: "lon") var longitude: Double
    @Field(key: "radius_m") var radius: Double
    /// The circle actually hidden (`PrivacyZone.hiding`): chosen once, so every workout stops on the same one.
    @OptionalField(key: "hidden_lat") var hiddenLatitude: Double?
    @OptionalField(key: "hidden_lon") var hiddenLongitude: Double?
    @OptionalField(key: "hidden_radius_m") var hiddenRadius: Double?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(user: UUID, name: String, centre: Coordinate, radius: Double) {
        self.$user.id = user
        self.name = name
        self.latitude = centre.latitude
        self.longitude = centre.longitude
        self.radius = radius
        hide()
    }

    /// Draws the hidden circle for the place.
    func hide() {
        var generator = SystemRandomNumberGenerator()
        let hidden = PrivacyZone.hiding(Coordinate(latitude: latitude, longitude: longitude), radius: radius, using: &generator)
        hiddenLatitude = hidden.centre.latitude
        hiddenLongitude = hidden.centre.longitude
        hiddenRadius = hidden.radius
    }

    /// The circle others' maps and exports stop at: never the place's own circle, whose centre is home.
    var zone: PrivacyZone {
        guard let hiddenLatitude, let hiddenLongitude, let hiddenRadius else {
            return PrivacyZone(centre: Coordinate(latitude: latitude, longitude: longitude), radius: radius + PrivacyZone.offsets.upperBound)
        }
        return PrivacyZone(centre: Coordinate(latitude: hiddenLatitude, longitude: hiddenLongitude), radius: hiddenRadius)
    }

    static func zones(of user: UUID, on db: any Database) async throws -> [PrivacyZone] {
        try await query(on: db).filter(\.$user.$id == user).all().map(\.zone)
    }

    /// Everyone's zones in one query, by person (a list of routes by many people).
    static func zones(of users: [UUID], on db: any Database) async throws -> [UUID: [PrivacyZone]] {
        guard !users.isEmpty else { return [:] }
        return Dictionary(grouping: try await query(on: db).filter(\.$user.$id ~~ users).all(), by: \.$user.id).mapValues { $0.map(\.zone) }
    }
}
