import Fluent
import Foundation

/// A planned path without times (a GPX route, or a track nobody timed): something to follow, not
/// a workout. Points are kept as compact JSON, as they are only ever read whole.
final class Route: Model, @unchecked Sendable {
    static let schema = "routes"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "name") var name: String
    @Field(key: "distance_m") var distance: Double
    /// `[[lat, lon, ele|null], …]`.
    @Field(key: "points") var points: String
    @Field(key: "point_count") var pointCount: Int
    @Field(key: "sha256") var sha256: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(user: UUID, name: String, distance: Double, points: String, pointCount: Int, sha256: String) {
        self.$user.id = user
        self.name = name
        self.distance = distance
        self.points = points
        self.pointCount = pointCount
        self.sha256 = sha256
    }
}
