import Fluent
import SQLKit

/// Who is in a conversation, read from its subject every time, as SQL over a conversation `c`:
/// - a team's: its members;
/// - a game's: its organiser, the people holding a place or waiting for one, and for a team game
///   the team's members;
/// - a plan's: its poster and the people who said they're in (or are waiting for a place);
/// - a direct one: its two people.
/// Leaving a team or a game therefore leaves its conversation at once, on every page, count and
/// stream that asks here.
enum ConversationSeats {
    /// Statuses of a game's players that seat them in its conversation: anyone with a place or in
    /// the queue for one. "Not going" keeps the seat: they are still on the roster and may change
    /// their mind. Someone who only asked to join is not seated: the talk may hold the exact place
    /// and names that the game page keeps from them until the organiser lets them in.
    private static let gameStatuses = "'going', 'maybe', 'not_going', 'joined', 'waitlisted', 'offered'"

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

    /// Everyone seated in the conversation, for the read marks a new message starts: the same rule
    /// as `seated`, read from the subject's side (its members and players), never over all people.
    static func everyone(in conversation: Conversation, on db: any Database) async throws -> [UUID] {
        let id = try conversation.requireID()
        struct Row: Decodable { let id: UUID }
        let statuses = SQLQueryString(stringLiteral: gameStatuses)
        return try await db.sql.raw(
            """
            SELECT c.person_a AS id FROM conversations c WHERE c.id = \(bind: id) AND c.person_a IS NOT NULL
            UNION SELECT c.person_b FROM conversations c WHERE c.id = \(bind: id) AND c.person_b IS NOT NULL
            UNION SELECT mb.user_id FROM conversations c JOIN memberships mb ON mb.team_id = c.team_id WHERE c.id = \(bind: id)
            UNION SELECT g.organiser_id FROM conversations c JOIN games g ON g.id = c.game_id WHERE c.id = \(bind: id) AND g.kind = 'pickup'
            UNION SELECT gp.user_id FROM conversations c JOIN game_players gp ON gp.game_id = c.game_id
              WHERE c.id = \(bind: id) AND (gp.status IN (\(statuses)) OR gp.is_sub)
            UNION SELECT gm.user_id FROM conversations c JOIN games g ON g.id = c.game_id JOIN memberships gm ON gm.team_id = g.team_id WHERE c.id = \(bind: id)
            UNION SELECT p.user_id FROM conversations c JOIN plans p ON p.id = c.plan_id WHERE c.id = \(bind: id)
            UNION SELECT pp.user_id FROM conversations c JOIN plans p ON p.id = c.plan_id JOIN game_players pp ON pp.game_id = p.game_id
              WHERE c.id = \(bind: id) AND pp.status IN (\(statuses))
            """
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

    /// Whether `user` would have a seat in the conversation of a team, game or plan that has none
    /// yet: the same rule, over a conversation row that is not stored.
    static func wouldSeat(_ user: UUID, kind: Conversation.Kind, subject: UUID, on db: any Database) async throws -> Bool {
        // A typed NULL, so PostgreSQL compares the column with uuid columns.
        let none: SQLQueryString = db.sql.dialect.name == "sqlite" ? "NULL" : "CAST(NULL AS uuid)"
        func column(_ name: String, _ of: Conversation.Kind) -> SQLQueryString {
            kind == of ? "\(bind: subject) AS \(unsafeRaw: name)" : "\(none) AS \(unsafeRaw: name)"
        }
        let row = try await db.sql.raw(
            """
            SELECT CASE WHEN \(seated("\(bind: user)")) THEN 1 ELSE 0 END AS seated
            FROM (SELECT \(none) AS person_a, \(none) AS person_b, \(column("team_id", .team)), \(column("game_id", .game)),
                         \(column("plan_id", .plan))) c
            """
        ).first()
        return try row.map { try flag($0, "seated") } ?? false
    }

    /// A 0/1 column, an integer on both databases.
    private static func flag(_ row: any SQLRow, _ column: String) throws -> Bool {
        try row.decode(column: column, as: Int.self) != 0
    }
}
