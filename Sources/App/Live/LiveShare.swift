import Fluent
import Vapor

/// A recording shared live while it records: with the person's coaches, one of their teams, their
/// followers, or people they chose. Chosen per recording; a workout has at most one.
final class LiveShare: Model, @unchecked Sendable {
    static let schema = "live_shares"

    enum Audience: String, Codable, Sendable, CaseIterable {
        case coaches, team, followers, people
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "workout_id") var workout: Workout
    @Parent(key: "user_id") var user: User
    @Field(key: "audience") var audienceName: String
    @OptionalField(key: "team_id") var teamID: UUID?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    init(workout: UUID, user: UUID, audience: Audience, team: UUID?) {
        self.$workout.id = workout
        self.$user.id = user
        self.audienceName = audience.rawValue
        self.teamID = team
    }

    /// Nil for "off" (a recording shared and then no longer) and for a value no version of the app
    /// wrote: such a share reaches nobody but its owner.
    var audience: Audience? { Audience(rawValue: audienceName) }
}

/// Someone a person chose to watch one recording (audience "people").
final class LiveSharePerson: Model, @unchecked Sendable {
    static let schema = "live_share_people"

    @ID(key: .id) var id: UUID?
    @Parent(key: "share_id") var share: LiveShare
    @Parent(key: "user_id") var user: User

    init() {}

    init(share: UUID, user: UUID) {
        self.$share.id = share
        self.$user.id = user
    }
}
