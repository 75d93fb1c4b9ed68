import Fluent
import SQLKit

/// Who is in a conversation, read from its subject every time, as SQL over a conversation `c`:
/// - a team's: its members;
/// - a game's: its organiser, the people holding a place (or asked to: they talk to the organiser),
///   and for a team game the team's members;
/// - a plan's: its poster and the people who said they're in (or are waiting for a place);
/// - a direct one: its two people.
/// Leaving a team or a game therefore leaves its conversation at once, on every page, count and
/// stream that asks here.
enum ConversationSeats {
    /// Statuses of a game's players that seat them in its conversation: anyone with a place, in the
    /// queue for one, or waiting for the organiser's answer. "Not going" keeps the seat: they are
    /// still on the roster and may change their mind.
    private static let gameStatuses = "'going', 'maybe', 'not_going', 'joined', 'waitlisted', 'requested', 'offered'"

    /// True when `user` (a bound id, or a column such as `u.id`) has a seat in conversation `c`.
    static func seated(_ user: SQLQueryString) -> SQLQueryString {
        """
        (c.person_a = \(user) OR c.person_b = \(user)
          OR EXISTS (SELECT 1 FROM memberships mb WHERE mb.team_id = c.team_id AND mb.user_id = \(user))
          OR EXISTS (SELECT 1 FROM games g WHERE g.id = c.game_id AND (
                (g.kind = 'pickup' AND g.organiser_id = \(user))
                OR EXISTS (SELECT 1 FROM game_players gp WHERE gp.game_id = g.id AND gp.user_id = \(user) AND (gp.status IN (\(unsafeRaw: gameStatuses)) OR gp.is_sub))
                OR EXISTS (SELECT 1 FROM memberships gm WHERE gm.team_id = g.team_id AND gm.user_id = \(user))))
          OR EXISTS (SELECT 1 FROM plans p WHERE p.id = c.plan_id AND (p.user_id = \(user)
                OR EXISTS (SELECT 1 FROM game_players pp WHERE pp.game_id = p.game_id AND pp.user_id = \(user) AND pp.status IN (\(unsafeRaw: gameStatuses))))))
        """
    }

    /// True when `user` may hide and remove others' messages in conversation `c`: a team's owner
    /// and managers (for its games too), a pick-up game's organiser, a plan's poster. A direct
    /// conversation has none: a report there goes to the site's admins.
    static func moderates(_ user: SQLQueryString) -> SQLQueryString {
        """
        (EXISTS (SELECT 1 FROM memberships mb WHERE mb.team_id = c.team_id AND mb.user_id = \(user) AND mb.role IN ('owner', 'manager'))
          OR EXISTS (SELECT 1 FROM games g WHERE g.id = c.game_id AND (
                (g.kind = 'pickup' AND g.organiser_id = \(user))
                OR EXISTS (SELECT 1 FROM memberships gm WHERE gm.team_id = g.team_id AND gm.user_id = \(user) AND gm.role IN ('owner', 'manager'))))
          OR EXISTS (SELECT 1 FROM plans p WHERE p.id = c.plan_id AND p.user_id = \(user)))
        """
    }

    /// Everyone seated in conversation `id`, for the read marks a new message starts.
    static func everyone(in conversation: Conversation, on db: any Database) async throws -> [UUID] {
        let id = try conversation.requireID()
        struct Row: Decodable { let id: UUID }
        return try await db.sql.raw(
            "SELECT u.id FROM users u, conversations c WHERE c.id = \(bind: id) AND \(seated("u.id"))"
        ).all(decoding: Row.self).map(\.id)
    }

    /// Whether `user` has a seat, and whether they moderate, in conversation `id`.
    static func seat(of user: UUID, in id: UUID, on db: any Database) async throws -> (seated: Bool, moderates: Bool) {
        let row = try await db.sql.raw(
            """
            SELECT CASE WHEN \(seated("\(bind: user)")) THEN 1 ELSE 0 END AS seated,
                   CASE WHEN \(moderates("\(bind: user)")) THEN 1 ELSE 0 END AS moderates
            FROM conversations c WHERE c.id = \(bind: id)
            """
        ).first()
        guard let row else { return (false, false) }
        return (try Self.flag(row, "seated"), try Self.flag(row, "moderates"))
    }

    /// A 0/1 column, an integer on both databases.
    private static func flag(_ row: any SQLRow, _ column: String) throws -> Bool {
        try row.decode(column: column, as: Int.self) != 0
    }
}
