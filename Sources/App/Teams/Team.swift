import FieldhouseKit
import Fluent
import Foundation

/// A team: its roster lives in `Membership`, who may see it in `TeamAccess`.
final class Team: Model, @unchecked Sendable {
    static let schema = "teams"

    @ID(key: .id) var id: UUID?
    @Field(key: "slug") var slug: String
    @Field(key: "name") var name: String
    @Field(key: "sport") var sport: String
    @Enum(key: "privacy") var privacy: Privacy
    @OptionalField(key: "place_name") var placeName: String?
    @OptionalField(key: "latitude") var latitude: Double?
    @OptionalField(key: "longitude") var longitude: Double?
    @Field(key: "age_group") var ageGroup: String
    @Field(key: "gender") var gender: String
    @Field(key: "skill") var skill: String
    @Field(key: "description") var description: String
    @Field(key: "looking_for_players") var lookingForPlayers: Bool
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    enum Privacy: String, Codable, CaseIterable, Sendable {
        case `public`, protected, `private`

        var label: String {
            switch self {
            case .public: t("Public: anyone can join straight away")
            case .protected: t("Protected: anyone can find it; managers approve who joins")
            case .private: t("Private: hidden; people join only by invitation")
            }
        }

        var shortLabel: String {
            switch self {
            case .public: t("Public")
            case .protected: t("Protected")
            case .private: t("Private")
            }
        }
    }

    var sportValue: Sport? { Sport(rawValue: sport) }

    var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

/// The gender a team or game is for.
enum TeamGender: String, CaseIterable, Codable, Sendable {
    case women, men, mixed, any

    var label: String {
        switch self {
        case .women: t("Women")
        case .men: t("Men")
        case .mixed: t("Mixed")
        case .any: t("Anyone")
        }
    }
}

/// The skill level a team or game is for: a `Skill`, or any.
enum TeamSkill: String, CaseIterable, Codable, Sendable {
    case beginner, intermediate, advanced, expert, any

    var label: String {
        switch self {
        case .beginner: t("Beginner")
        case .intermediate: t("Intermediate")
        case .advanced: t("Advanced")
        case .expert: t("Expert")
        case .any: t("Any level")
        }
    }
}
