import FieldhouseKit
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
        case gameInvite = "game_invite"
        case challengeReceived = "challenge_received", challengeReply = "challenge_reply", challengeJudged = "challenge_judged"
        case goalReached = "goal_reached", workoutReminder = "workout_reminder"
        case coachRequest = "coach_request", coachAccepted = "coach_accepted", sessionPlanned = "session_planned", workoutComment = "workout_comment",
            zonesChanged = "zones_changed"
        case kudos
        case planJoined = "plan_joined", planPosted = "plan_posted", comment, badge, gift
        case nudge
        case rewardEligible = "reward_eligible", placeManager = "place_manager"
        case liveWorkout = "live_workout"
    }

    /// Records one notification per recipient. `actor` is whoever the text names (nil for news that
    /// names nobody), so that the text goes when they delete their account.
    /// People who turned the kind's topic off in their settings get nothing, except those in
    /// `always`: news about a game someone holds a place in reaches them whatever they chose.
    /// Those with a confirmed address who keep the topic's e-mails on also get it by e-mail, written
    /// to the outbox on the same database (in the caller's transaction when there is one; a
    /// transaction of its own here would hold SQLite's write lock across statements, which starves
    /// the two threads SQLite runs on when many write at once).
    ///
    /// `text` is written once per reader among the recipients (their language, else English, and
    /// their clock), inside `Reader.write`, so `t(...)` and `Format` in it speak each recipient's
    /// language and write times as they read them.
    /// `text` written in `recipient`'s language, for a notification updated in place (a second
    /// kudos joins the first one's line).
    static func text(for recipient: UUID, on db: any Database, _ text: () -> String) async throws -> String {
        let user = try await User.query(on: db).filter(\.$id == recipient).field(\.$id).field(\.$languageCode).field(\.$clockCode).first()
        return (user?.reader ?? Reader(language: .en, clock: .twentyFourHour)).write { text() }
    }

    /// News of something `actor` did, named to each recipient as that recipient may know them
    /// (`PersonAccess.knownName`): by name, or as "Someone" with no actor stored. `text` gets the name.
    static func send(
        to recipients: [UUID], by actor: User, kind: Kind, today: CalendarDate, text: @escaping (String) -> String, link: String,
        always: Set<UUID> = [], on db: any Database
    ) async throws {
        let (known, unknown) = try await Self.split(recipients, knowing: actor, today: today, on: db)
        try await send(to: known, from: actor.requireID(), kind: kind, text: text(actor.displayName), link: link, always: always, on: db)
        try await send(to: unknown, from: nil, kind: kind, text: text(t("Someone")), link: link, always: always, on: db)
    }

    /// The recipients who may know `actor` exists, and those who may not.
    static func split(_ recipients: [UUID], knowing actor: User, today: CalendarDate, on db: any Database) async throws -> (
        known: [UUID], unknown: [UUID]
    ) {
        let actorID = try actor.requireID()
        var known: [UUID] = [], unknown: [UUID] = []
        for recipient in Set(recipients) {
            let relation = try await Relations.load(viewerID: recipient, people: [actorID], today: today, on: db).relation(to: actor)
            if PersonAccess.knownName(of: actor, relation) != nil { known.append(recipient) } else { unknown.append(recipient) }
        }
        return (known, unknown)
    }

    static func send(
        to recipients: [UUID], from actor: UUID?, kind: Kind, text: @autoclosure () -> String, link: String, always: Set<UUID> = [],
        on db: any Database
    ) async throws {
        let everyone = Set(recipients)
        guard !everyone.isEmpty else { return }
        var readers: [UUID: Reader] = [:]
        for user in try await User.query(on: db).filter(\.$id ~~ Array(everyone)).field(\.$id).field(\.$languageCode).field(\.$clockCode).all() {
            if let id = user.id { readers[id] = user.reader }
        }
        let unknown = Reader(language: .en, clock: .twentyFourHour)
        var texts: [Reader: String] = [:]
        func written(for recipient: UUID) -> String {
            let reader = readers[recipient] ?? unknown
            if let written = texts[reader] { return written }
            let written = reader.write { text() }
            texts[reader] = written
            return written
        }
        // News nobody can turn off under the bell (a place in a game) follows the Games switch by e-mail.
        let emailTopic = kind.topic ?? .games
        var choices: [UUID: NotificationSetting] = [:]
        for setting in try await NotificationSetting.query(on: db).filter(\.$topic == emailTopic).filter(\.$user.$id ~~ Array(everyone)).all() {
            choices[setting.$user.id] = setting
        }
        var created: [Notification] = []
        for recipient in everyone where kind.topic == nil || choices[recipient]?.inApp ?? true || always.contains(recipient) {
            let notification = Notification(recipient: recipient, actor: actor, kind: kind, text: written(for: recipient), link: link)
            try await notification.create(on: db)
            created.append(notification)
        }
        // What appears under the bell also goes to the browsers that chose its topic (by the same
        // switch as e-mail for news nobody can turn off).
        try await PushSendJob.queue(created, topic: emailTopic, on: db)
        let byEmail = everyone.filter { choices[$0]?.email ?? emailTopic.emailByDefault }
        guard !byEmail.isEmpty else { return }
        // Only addresses confirmed by their owner, which a server without e-mail never has.
        let confirmed = try await User.query(on: db).filter(\.$id ~~ Array(byEmail)).filter(\.$emailConfirmedAt != nil)
            .field(\.$id).field(\.$email).all()
        for user in confirmed {
            let body = written(for: try user.requireID())
            try await OutboxMessage(
                user: user.requireID(), actor: actor, to: user.email, topic: emailTopic.rawValue, subject: NotificationMail.subject(body),
                body: body, link: link, linkLabel: (readers[try user.requireID()] ?? unknown).write { t("Open in Fieldhouse") }
            ).queue(on: db)
        }
    }
}
