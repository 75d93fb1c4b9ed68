import Fluent
import Foundation

/// A person's choice to show friends roughly where they are (`NearbyCell`), and the area they last
/// shared, good until `until`. Only people 16 and over may turn it on; it starts off.
final class NearbyShare: Model, @unchecked Sendable {
    static let schema = "nearby_shares"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "enabled") var enabled: Bool
    @OptionalField(key: "cell_lat") var cellLat: Double?
    @OptionalField(key: "cell_lon") var cellLon: Double?
    @OptionalField(key: "until") var until: Date?
    /// Areas set since `movesSince`: a few a share, so nobody can walk chosen points around a
    /// friend to find their cell.
    @Field(key: "moves") var moves: Int
    @OptionalField(key: "moves_since") var movesSince: Date?

    init() {}

    /// How long a shared area lasts.
    static let lifetime: TimeInterval = 3 * 3600
    /// Areas one may set within `lifetime`.
    static let movesPerShare = 4
}
