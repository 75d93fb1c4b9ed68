import Fluent
import Foundation
import SQLKit

extension Teams {
    /// The person's public and protected teams. Private teams never appear on a profile, not even
    /// to someone who plays in them too: the profile is not the place to reveal them.
    static func profileParts(of userID: UUID, on db: any Database) async throws -> ProfileParts {
        let items = try await db.sql.raw(
            """
            SELECT t.slug, t.name, m.role FROM memberships m JOIN teams t ON t.id = m.team_id
            WHERE m.user_id = \(bind: userID) AND t.privacy <> \(bind: Team.Privacy.private.rawValue)
            ORDER BY t.name
            """
        ).all().map { row in
            ProfileParts.List.Item(
                text: try row.decode(column: "name", as: String.self),
                url: SiteURL.team(slug: try row.decode(column: "slug", as: String.self)).path,
                badge: Membership.Role(rawValue: try row.decode(column: "role", as: String.self))?.label ?? ""
            )
        }
        return ProfileParts(lists: items.isEmpty ? [] : [ProfileParts.List(heading: t("Teams"), items: items)])
    }
}
