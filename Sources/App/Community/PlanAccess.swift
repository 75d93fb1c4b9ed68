import Fluent
import Foundation
import SQLKit

/// Who sees a plan: its poster; followers (accepted) for `followers`; followers the poster follows
/// back for `friends`; the team's members for `team`, while the team lets members in (a team made
/// public later, which anyone may join, no longer counts); and anyone who already said they're in.
/// The one rule, as SQL over a plan `p`, used by the plan page and the feed alike.
enum PlanAccess {
    static func visible(to viewer: UUID) -> SQLQueryString { visible(toColumn: "\(bind: viewer)") }

    /// The same rule for `viewer` written as SQL: a bound id, or a column such as `u.id`.
    static func visible(toColumn viewer: SQLQueryString) -> SQLQueryString {
        """
        (p.user_id = \(viewer)
          OR (p.audience IN ('followers', 'friends')
            AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(viewer) AND f.followee_id = p.user_id AND f.status = 'accepted')
            AND (p.audience = 'followers'
              OR EXISTS (SELECT 1 FROM follows b WHERE b.follower_id = p.user_id AND b.followee_id = \(viewer) AND b.status = 'accepted')))
          OR (p.audience = 'team' AND EXISTS (SELECT 1 FROM memberships m JOIN teams t ON t.id = m.team_id
                WHERE m.team_id = p.team_id AND m.user_id = \(viewer) AND t.privacy <> 'public'))
          OR EXISTS (SELECT 1 FROM game_players gp WHERE gp.game_id = p.game_id AND gp.user_id = \(viewer)))
        """
    }

    /// Everyone but the poster who may see plan `id`, at most `limit` of them: its audience, told
    /// when it is posted.
    static func audience(of id: UUID, limit: Int, on db: any Database) async throws -> [UUID] {
        struct Row: Decodable { let id: UUID }
        return try await db.sql.raw(
            """
            SELECT u.id FROM users u, plans p WHERE p.id = \(bind: id) AND u.id <> p.user_id AND \(visible(toColumn: "u.id"))
            ORDER BY u.id LIMIT \(bind: limit)
            """
        ).all(decoding: Row.self).map(\.id)
    }

    /// The plan with its game and poster, when the viewer may see it; nil otherwise.
    static func find(_ id: UUID, viewer: UUID, on db: any Database) async throws -> Plan? {
        guard try await db.sql.raw("SELECT p.id FROM plans p WHERE p.id = \(bind: id) AND \(visible(to: viewer))").first() != nil
        else { return nil }
        return try await Plan.query(on: db).filter(\.$id == id).with(\.$game).with(\.$poster).first()
    }
}
