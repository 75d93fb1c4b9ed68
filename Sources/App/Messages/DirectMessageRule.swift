import FieldhouseKit
import Fluent
import SQLKit

/// Who may write to whom directly. Two people who follow each other may; when either is under 16,
/// they must also be teammates in a team one is let into (not a public one) or coach and athlete, so an adult stranger cannot start a conversation with a child by
/// following them. Nobody may write to someone who blocked them, or whom they blocked.
/// Asked on every message, not only when a conversation starts: an unfollow or a block ends it.
enum DirectMessageRule {
    enum Verdict: Equatable {
        case allowed
        /// The sender blocked the person.
        case youBlocked
        /// The person blocked the sender, who is not told.
        case blocked
        case notMutual
        case child
    }

    static func verdict(from sender: User, to person: User, today: CalendarDate, on db: any Database) async throws -> Verdict {
        let a = try sender.requireID(), b = try person.requireID()
        guard a != b else { return .notMutual }
        if try await Block.blockedIDs(by: a, on: db).contains(b) { return .youBlocked }
        if try await Block.between(a, b, on: db) { return .blocked }
        let mutual =
            try await db.sql.raw(
                """
                SELECT COUNT(*) AS n FROM follows
                WHERE status = 'accepted' AND ((follower_id = \(bind: a) AND followee_id = \(bind: b)) OR (follower_id = \(bind: b) AND followee_id = \(bind: a)))
                """
            ).first().map { try $0.decode(column: "n", as: Int.self) } ?? 0
        guard mutual == 2 else { return .notMutual }
        guard sender.isUnder16(on: today) || person.isUnder16(on: today) else { return .allowed }
        return try await teammatesOrCoach(a, b, on: db) ? .allowed : .child
    }

    /// Coach and athlete (an accepted grant either way), or teammates in a team that is not open
    /// to anyone: anyone may join a public team at once, so one proves nothing, whatever its roles
    /// (a child may run a public team an adult then joins).
    private static func teammatesOrCoach(_ a: UUID, _ b: UUID, on db: any Database) async throws -> Bool {
        try await db.sql.raw(
            """
            SELECT 1 AS found FROM coach_grants WHERE status = 'active'
              AND ((coach_id = \(bind: a) AND athlete_id = \(bind: b)) OR (coach_id = \(bind: b) AND athlete_id = \(bind: a)))
            UNION ALL
            SELECT 1 AS found FROM memberships x JOIN memberships y ON y.team_id = x.team_id JOIN teams t ON t.id = x.team_id
            WHERE x.user_id = \(bind: a) AND y.user_id = \(bind: b) AND t.privacy <> 'public'
            """
        ).first() != nil
    }

    /// Why a conversation with `person` cannot go on, in words for the sender; nil when it can.
    static func refusal(_ verdict: Verdict, person: User) -> String? {
        switch verdict {
        case .allowed: nil
        case .youBlocked: t("You blocked {name}. Unblock them on their profile to write again.", person.displayName)
        // The same words as for someone who does not follow back: a block is not announced.
        case .blocked, .notMutual: t("You can message {name} once you follow each other.", person.displayName)
        case .child:
            t("People under 16 can be messaged only by people they follow back who are also their teammates or coaches.")
        }
    }
}
