import FieldhouseKit
import Fluent
import Foundation

/// A sport someone plays and how well; shown on their profile and later used to suggest games.
final class UserSport: Model, @unchecked Sendable {
    static let schema = "user_sports"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "sport") var sport: String
    @Field(key: "skill") var skill: String

    init() {}

    init(userID: UUID, sport: Sport, skill: Skill) {
        self.$user.id = userID
        self.sport = sport.rawValue
        self.skill = skill.rawValue
    }
}
