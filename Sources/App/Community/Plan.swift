import Fluent
import Foundation

/// "Running at the lake at 6, who's in?": a post to friends, followers or a team, made a pick-up
/// game when it is posted. The game is private (only its players see it); the plan is how its
/// audience finds it, and "I'm in" takes a place in it.
final class Plan: Model, @unchecked Sendable {
    static let schema = "plans"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var poster: User
    @Parent(key: "game_id") var game: Game
    @Enum(key: "audience") var audience: Audience
    /// For `.team`: the team whose members see it.
    @OptionalParent(key: "team_id") var team: Team?
    @Field(key: "text") var text: String
    /// One of the poster's shared routes, to follow together.
    @OptionalParent(key: "route_id") var route: Route?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    enum Audience: String, Codable, CaseIterable, Sendable {
        /// People who follow the poster and whom the poster follows back.
        case friends
        /// Everyone whose follow the poster accepted.
        case followers
        case team
    }

    static let maxText = 280
    /// People told of a new plan at most: a team or a following larger than this hears from the feed.
    static let maxAudienceTold = 500
}
