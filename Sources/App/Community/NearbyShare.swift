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

    init() {}

    /// How long a shared area lasts.
    static let lifetime: TimeInterval = 3 * 3600
}
