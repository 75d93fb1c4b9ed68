import FieldhouseKit
import Fluent
import Foundation

/// A reply to a challenge: the replier's photo, a note and where it was taken, then the sender's
/// judgement.
final class ChallengeResponse: Model, @unchecked Sendable {
    static let schema = "challenge_responses"

    enum Status: String, Codable, Sendable {
        case pending, accepted, rejected
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "challenge_id") var challenge: Challenge
    /// The challenge's sender, copied here so the header's "to judge" count is one indexed lookup.
    @Parent(key: "challenger_id") var challenger: User
    @Parent(key: "user_id") var user: User
    @Parent(key: "photo_id") var photo: Photo
    @Field(key: "note") var note: String
    @OptionalField(key: "latitude") var latitude: Double?
    @OptionalField(key: "longitude") var longitude: Double?
    @OptionalField(key: "location_source") var locationSource: String?
    /// Metres from the challenge's place, when both are known.
    @OptionalField(key: "distance_m") var distanceMetres: Double?
    /// The photo's EXIF capture time was before the challenge was sent.
    @Field(key: "taken_before") var takenBefore: Bool
    @Enum(key: "status") var status: Status
    @OptionalField(key: "stars") var stars: Int?
    @OptionalField(key: "reason") var reason: String?
    @OptionalField(key: "judged_at") var judgedAt: Date?
    @Field(key: "client_key") var clientKey: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
