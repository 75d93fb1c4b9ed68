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
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(user: UUID, name: String, centre: Coordinate, radius: Double) {
        self.$user.id = user
        self.name = name
        self.latitude = centre.latitude
        self.longitude = centre.longitude
        self.radius = radius
    }

    var zone: PrivacyZone { PrivacyZone(centre: Coordinate(latitude: latitude, longitude: longitude), radius: radius) }

    static func zones(of user: UUID, on db: any Database) async throws -> [PrivacyZone] {
        try await query(on: db).filter(\.$user.$id == user).all().map(\.zone)
    }
}

struct CreatePrivacyZone: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SavedPrivacyZone.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("lat", .double, .required)
            .field("lon", .double, .required)
            .field("radius_m", .double, .required)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SavedPrivacyZone.schema).delete()
    }
}
