import Fluent
import Foundation
import SQLKit

extension User {
    /// Every column of `users`, for hot paths that read with plain SQL. Fluent builds a model by
    /// reflecting over its 22 properties many times per row, which costs more CPU than the query;
    /// decoding this struct and filling a model by hand costs a small fraction of that.
    struct Row: Decodable, Sendable {
        let id: UUID
        let username, email, password_hash, display_name, search_name, role: String
        let email_confirmed_at, email_confirmation_sent_at: Date?
        let address_taken: String?
        let bio, birth_date: String?
        let gender: String
        let height_cm, weight_kg: Double?
        let home_name: String?
        let home_lat, home_lon: Double?
        let time_zone, units: String
        let language, clock: String?
        let continuous_hr: Bool
        let visibility: String
        let avatar_file: String?
        let calendar_token_hash: String?
        let calendar_generation: Int
        let max_hr, resting_hr: Int?
        let zone_basis, zone_percents: String?
        let created_at, updated_at: Date?
    }

    /// A model for an existing row, usable for updates and deletes like one Fluent loaded.
    convenience init(row: Row) {
        self.init()
        id = row.id
        $id.exists = true
        $sports.fromId = row.id
        username = row.username
        email = row.email
        emailConfirmedAt = row.email_confirmed_at
        emailConfirmationSentAt = row.email_confirmation_sent_at
        addressTaken = row.address_taken
        passwordHash = row.password_hash
        displayName = row.display_name
        searchName = row.search_name
        role = Role(rawValue: row.role) ?? .member
        bio = row.bio
        birthDate = row.birth_date
        gender = Gender(rawValue: row.gender) ?? .unspecified
        heightCm = row.height_cm
        weightKg = row.weight_kg
        homeName = row.home_name
        homeLat = row.home_lat
        homeLon = row.home_lon
        timeZone = row.time_zone
        units = Units(rawValue: row.units) ?? .metric
        languageCode = row.language
        clockCode = row.clock
        continuousHeartRate = row.continuous_hr
        // An unreadable visibility must fail closed.
        visibility = Visibility(rawValue: row.visibility) ?? .private
        avatarFile = row.avatar_file
        calendarTokenHash = row.calendar_token_hash
        calendarGeneration = row.calendar_generation
        maxHeartRate = row.max_hr
        restingHeartRate = row.resting_hr
        zoneBasis = row.zone_basis
        zonePercents = row.zone_percents
        createdAt = row.created_at
        updatedAt = row.updated_at
    }
}
