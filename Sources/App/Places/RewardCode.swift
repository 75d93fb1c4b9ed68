import Fluent
import Foundation

/// A reward earned by arriving actively at a place: a short code the person shows, which the place
/// redeems once. One per person, place and day (the key enforces it).
final class RewardCode: Model, @unchecked Sendable {
    static let schema = "reward_codes"

    @ID(key: .id) var id: UUID?
    @Parent(key: "place_id") var place: Place
    @Parent(key: "user_id") var user: User
    /// Eight characters from an alphabet without look-alikes (no 0/O, 1/I/L).
    @Field(key: "code") var code: String
    /// The place's day it was earned on ("2026-11-23"); the code is good until that day ends.
    @Field(key: "day") var day: String
    /// The reward as it read when earned, so a later change of offer does not change this one.
    @Field(key: "reward_text") var rewardText: String
    @Field(key: "issued_at") var issuedAt: Date
    @OptionalField(key: "redeemed_at") var redeemedAt: Date?

    init() {}

    init(place: UUID, user: UUID, code: String, day: String, rewardText: String, issuedAt: Date) {
        self.$place.id = place
        self.$user.id = user
        self.code = code
        self.day = day
        self.rewardText = rewardText
        self.issuedAt = issuedAt
    }

    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    /// Codes one person may earn in 24 hours, across every place.
    static let perPersonPerDay = 3

    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<8).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// A code as typed at the counter: spaces and dashes dropped, lower case raised.
    static func normalise(_ typed: String) -> String {
        String(typed.uppercased().filter { $0 != " " && $0 != "-" }.prefix(16))
    }
}
