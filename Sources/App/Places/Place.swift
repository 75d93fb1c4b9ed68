import FieldhouseKit
import Fluent
import Foundation

/// A park, pitch, court, shop or café: somewhere people go to play or arrive at. Places are public
/// (anyone may look them up); only admins and place managers add them, and only a place's managers
/// and admins change it.
final class Place: Model, @unchecked Sendable {
    static let schema = "places"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Enum(key: "kind") var kind: Kind
    @Field(key: "latitude") var latitude: Double
    @Field(key: "longitude") var longitude: Double
    /// How far from the point still counts as being there (a check-in), in metres.
    @Field(key: "radius_m") var radius: Double
    @Field(key: "description") var description: String
    /// As the place writes it: "Mon–Fri 8:00–20:00, weekends 9:00–18:00".
    @Field(key: "opening_hours") var openingHours: String
    /// Sports played there, as `Sport` raw values separated by commas (",tennis,running,").
    @Field(key: "sports") var sportsText: String
    /// The place's own zone: a reward's day and its daily cap are counted in it.
    @Field(key: "time_zone") var timeZone: String
    /// "10 % off when you arrive by bike"; empty when the place offers no reward.
    @Field(key: "reward_text") var rewardText: String
    @Field(key: "reward_daily_cap") var rewardDailyCap: Int
    /// The first and last day ("2026-11-01") the reward is offered, in the place's zone.
    @OptionalField(key: "reward_from") var rewardFrom: String?
    @OptionalField(key: "reward_until") var rewardUntil: String?
    @OptionalParent(key: "created_by") var creator: User?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    enum Kind: String, Codable, CaseIterable, Sendable {
        case park, pitch, court, track, pool, gym, shop, cafe

        var label: String {
            switch self {
            case .park: t("Park")
            case .pitch: t("Pitch")
            case .court: t("Court")
            case .track: t("Track")
            case .pool: t("Pool")
            case .gym: t("Gym")
            case .shop: t("Shop")
            case .cafe: t("Café")
            }
        }
    }

    static let maxName = 100
    static let maxDescription = 2_000
    static let radii = 10.0...2_000.0

    var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    var sports: [Sport] { sportsText.split(separator: ",").compactMap { Sport(rawValue: String($0)) } }

    static func sportsText(_ sports: [Sport]) -> String { sports.isEmpty ? "" : "," + sports.map(\.rawValue).joined(separator: ",") + "," }

    /// The reward on offer on `day` (in the place's zone), if any.
    func reward(on day: CalendarDate) -> String? {
        guard !rewardText.isEmpty, rewardDailyCap > 0 else { return nil }
        if let from = rewardFrom.flatMap(CalendarDate.init(iso:)), day < from { return nil }
        if let until = rewardUntil.flatMap(CalendarDate.init(iso:)), day > until { return nil }
        return rewardText
    }
}

/// A person who may change a place, set its reward and redeem its codes.
final class PlaceManager: Model, @unchecked Sendable {
    static let schema = "place_managers"

    @ID(key: .id) var id: UUID?
    @Parent(key: "place_id") var place: Place
    @Parent(key: "user_id") var user: User
    /// False while the person has been asked and has not yet said yes: no rights until then.
    @Field(key: "accepted") var accepted: Bool

    init() {}

    init(place: UUID, user: UUID, accepted: Bool) {
        self.$place.id = place
        self.$user.id = user
        self.accepted = accepted
    }
}
