import Fluent
import Foundation
import SQLKit

/// New members of the viewer's teams, in the feed: only teammates see them, as on the roster, and a
/// name links to the profile only where the roster would link it.
extension Teams {
    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        // The new members come with their names and what `PersonAccess` decides by, in one read.
        // The cursor's moment plus a millisecond: stored dates round, so `Feed` cuts exactly.
        let newest = before.map { Date(timeIntervalSince1970: Double($0.maxAt + 1) / 1000) } ?? .distantFuture
        let rows = try await db.sql.raw(
            """
            SELECT m.id AS membership_id, m.created_at, t.slug, t.name,
              u.id, u.username, u.display_name, u.visibility, u.birth_date
            FROM memberships m
            JOIN memberships mine ON mine.team_id = m.team_id AND mine.user_id = \(bind: viewer.id)
            JOIN teams t ON t.id = m.team_id
            JOIN users u ON u.id = m.user_id
            WHERE m.user_id <> \(bind: viewer.id) AND m.created_at IS NOT NULL AND m.created_at <= \(bind: newest)
            ORDER BY m.created_at DESC, m.id DESC
            LIMIT \(literal: max(1, limit) + 1)
            """
        ).all().map { row in
            (
                id: try row.decode(column: "membership_id", as: UUID.self), createdAt: try row.decode(column: "created_at", as: Date.self),
                slug: try row.decode(column: "slug", as: String.self), name: try row.decode(column: "name", as: String.self),
                person: try User.forPolicy(row)
            )
        }
        guard !rows.isEmpty else { return [] }
        let relations = try await Relations.load(viewerID: viewer.id, people: Array(Set(rows.compactMap(\.person.id))), today: viewer.today, on: db)
        return rows.map { row in
            let person = row.person
            let visible = PersonAccess.canSeeExists(person, relations.relation(to: person))
            return FeedItem(
                at: Feed.milliseconds(row.createdAt), key: "member:\(SiteURL.id(row.id))", kind: "member", actorName: person.displayName,
                actorURL: visible ? SiteURL.person(username: person.username).path : nil, text: t("joined"), title: row.name,
                url: SiteURL.team(slug: row.slug).path, detail: nil)
        }
    }
}
