import Fluent
import Foundation
import SQLKit

/// An in-app notification ("Ana asked to join Riverside Futsal").
final class Notification: Model, @unchecked Sendable {
    static let schema = "notifications"

    @ID(key: .id) var id: UUID?
    @Parent(key: "recipient_id") var recipient: User
    /// The person whose action it tells of, when it names one: deleting their account deletes it.
    @OptionalParent(key: "actor_id") var actor: User?
    @Field(key: "kind") var kind: String
    @Field(key: "text") var text: String
    @Field(key: "link") var link: String
    @Field(key: "read") var read: Bool
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(recipient: UUID, actor: UUID?, kind: Kind, text: String, link: String) {
        self.$recipient.id = recipient
        self.$actor.id = actor
        self.kind = kind.rawValue
        self.text = text
        self.link = link
        self.read = false
    }

    enum Kind: String {
        case joinRequest = "join_request", invited, approved, roleChanged = "role_changed", leagueInvite = "league_invite", teamClosed = "team_closed"
        case newGame = "new_game", gameChanged = "game_changed", gameCancelled = "game_cancelled", gameReminder = "game_reminder",
            gameNearby = "game_nearby"
        case gameJoinRequest = "game_join_request", gamePlace = "game_place", gameRemoved = "game_removed", subsFilled = "subs_filled"
        case challengeReceived = "challenge_received", challengeReply = "challenge_reply", challengeJudged = "challenge_judged"
        case goalReached = "goal_reached", workoutReminder = "workout_reminder"
        case coachRequest = "coach_request", coachAccepted = "coach_accepted", sessionPlanned = "session_planned", workoutComment = "workout_comment",
            zonesChanged = "zones_changed"
    }

    /// Records one notification per recipient. `actor` is whoever the text names (nil for news that
    /// names nobody), so that the text goes when they delete their account.
    /// People who turned the kind's topic off in their settings get nothing, except those in
    /// `always`: news about a game someone holds a place in reaches them whatever they chose.
    static func send(
        to recipients: [UUID], from actor: UUID?, kind: Kind, text: String, link: String, always: Set<UUID> = [], on db: any Database
    ) async throws {
        let everyone = Set(recipients)
        guard !everyone.isEmpty else { return }
        var muted: Set<UUID> = []
        if let topic = kind.topic {
            muted = Set(
                try await NotificationSetting.query(on: db).filter(\.$topic == topic).filter(\.$inApp == false)
                    .filter(\.$user.$id ~~ Array(everyone)).all().map { $0.$user.id })
        }
        for recipient in everyone.subtracting(muted.subtracting(always)) {
            try await Notification(recipient: recipient, actor: actor, kind: kind, text: text, link: link).create(on: db)
        }
    }
}
