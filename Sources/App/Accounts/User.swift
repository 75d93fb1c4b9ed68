import Fluent
import Foundation
import Vapor

/// A person with an account. Everything private about them (birth date, weight, exact home) stays on
/// this row and is only ever put into pages the person themselves sees.
final class User: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    /// Always stored in lower case; usernames are unique whatever case they were typed in.
    @Field(key: "username") var username: String
    @Field(key: "email") var email: String
    /// When the person opened the link sent to `email`; e-mail goes only to confirmed addresses.
    @OptionalField(key: "email_confirmed_at") var emailConfirmedAt: Date?
    /// When the last confirmation link was sent.
    @OptionalField(key: "email_confirmation_sent_at") var emailConfirmationSentAt: Date?
    /// The address typed at sign-up when another account already had it (`AddAddressTakenToUsers`):
    /// `email` is then a stand-in at `.invalid` that is never mailed.
    @OptionalField(key: "address_taken") var addressTaken: String?

    /// The address as its owner is shown it.
    var shownEmail: String { addressTaken ?? email }
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "display_name") var displayName: String
    /// Lower-cased display name, so search can use an index-friendly LIKE on both databases.
    @Field(key: "search_name") var searchName: String
    @Enum(key: "role") var role: Role
    @OptionalField(key: "bio") var bio: String?
    /// A calendar date ("1990-04-23"); kept as text so no time zone can shift it by a day.
    @OptionalField(key: "birth_date") var birthDate: String?
    @Enum(key: "gender") var gender: Gender
    @OptionalField(key: "height_cm") var heightCm: Double?
    @OptionalField(key: "weight_kg") var weightKg: Double?
    @OptionalField(key: "home_name") var homeName: String?
    @OptionalField(key: "home_lat") var homeLat: Double?
    @OptionalField(key: "home_lon") var homeLon: Double?
    @Field(key: "time_zone") var timeZone: String
    @Enum(key: "units") var units: Units
    /// The language chosen in the settings ("pt-PT"); nil follows the browser.
    @OptionalField(key: "language") var languageCode: String?
    /// The clock chosen in the settings ("12h"); nil is the 24-hour clock.
    @OptionalField(key: "clock") var clockCode: String?
    @Field(key: "continuous_hr") var continuousHeartRate: Bool
    @Enum(key: "visibility") var visibility: Visibility
    /// File name under `<data>/avatars`, never a path the user supplied.
    @OptionalField(key: "avatar_file") var avatarFile: String?
    /// The hash of the secret in this person's calendar feed URL (see `CalendarFeed.url`);
    /// nil until the feed is first shown.
    @OptionalField(key: "calendar_token_hash") var calendarTokenHash: String?
    /// Counts "make a new address": the feed's token is derived from the server key, the person and this.
    @Field(key: "calendar_generation") var calendarGeneration: Int
    // Heart-rate zones set by the person or their coach (`HeartRateZones`); nil until set.
    @OptionalField(key: "max_hr") var maxHeartRate: Int?
    @OptionalField(key: "resting_hr") var restingHeartRate: Int?
    /// "max" or "reserve".
    @OptionalField(key: "zone_basis") var zoneBasis: String?
    /// Lower limits of zones 1–5 in per cent, "50,60,70,80,90".
    @OptionalField(key: "zone_percents") var zonePercents: String?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    @Children(for: \.$user) var sports: [UserSport]

    init() {}

    init(username: String, email: String, passwordHash: String, displayName: String, birthDate: String?, role: Role = .member) {
        self.username = username.lowercased()
        self.email = email.lowercased()
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.searchName = displayName.lowercased()
        self.role = role
        self.birthDate = birthDate
        self.gender = .unspecified
        self.timeZone = "UTC"
        self.units = .metric
        self.continuousHeartRate = false
        self.visibility = .public
        self.calendarGeneration = 0
    }

    enum Role: String, Codable, CaseIterable, Sendable {
        case member, editor, admin
    }

    enum Gender: String, Codable, CaseIterable, Sendable {
        case female, male, another, unspecified

        var label: String {
            switch self {
            case .female: t("Female")
            case .male: t("Male")
            case .another: t("Another gender")
            case .unspecified: t("Prefer not to say")
            }
        }
    }

    enum Units: String, Codable, CaseIterable, Sendable {
        case metric, imperial
        var label: String {
            switch self {
            case .metric: t("Metric (km, kg)")
            case .imperial: t("Imperial (mi, lb)")
            }
        }
    }

    enum Visibility: String, Codable, CaseIterable, Sendable {
        case `public`, followers, `private`

        var label: String {
            switch self {
            case .public: t("Public: anyone can see my profile and follow me")
            case .followers: t("Followers only: people ask to follow me, and only followers see my profile")
            case .private: t("Private: hidden from search; only people I follow or who follow me can find me")
            }
        }
    }

    func setDisplayName(_ name: String) {
        displayName = name
        searchName = name.lowercased()
    }

    /// Up to two letters for the round placeholder shown where there is no picture.
    var initials: String {
        String(displayName.split(separator: " ").prefix(2).compactMap(\.first)).uppercased()
    }

    func requireID() throws -> UUID {
        guard let id else { throw Abort(.internalServerError, reason: "User has no id") }
        return id
    }
}

extension User: ModelSessionAuthenticatable {}

extension User {
    /// The person's home area as a place they can pick by name (only they are offered it).
    var homePlace: PlaceMatch? {
        guard let homeName, let homeLat, let homeLon else { return nil }
        return PlaceMatch(name: homeName, detail: t("your home area"), latitude: homeLat, longitude: homeLon)
    }
}
