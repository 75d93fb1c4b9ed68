import Fluent
import Foundation
import SQLKit

/// New members of the viewer's teams, in the feed: only teammates see them, as on the roster, and a
/// name links to the profile only where the roster would link it.
extension Teams {
    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] {
        struct Row: Decodable {
            let id: UUID
            let created_at: Date
            let user_id: UUID
            let slug: String
            let name: String
        }
        // The cursor's moment plus a millisecond: stored dates round, so `Feed` cuts exactly.
        let newest = before.map { Date(timeIntervalSince1970: Double($0.maxAt + 1) / 1000) } ?? .distantFuture
        let rows = try await (db as! any SQLDatabase).raw(
            """
            SELECT m.id, m.created_at, m.user_id, t.slug, t.name
            FROM memberships m
            JOIN memberships mine ON mine.team_id = m.team_id AND mine.user_id = \(bind: viewer.id)
            JOIN teams t ON t.id = m.team_id
            WHERE m.user_id <> \(bind: viewer.id) AND m.created_at IS NOT NULL AND m.created_at <= \(bind: newest)
            ORDER BY m.created_at DESC, m.id DESC
            LIMIT \(literal: max(1, limit) + 1)
            """
        ).all(decoding: Row.self)
        guard !rows.isEmpty else { return [] }
        let people = try await (db as! any SQLDatabase).select().columns("id", "username", "display_name", "visibility", "birth_date").from(User.schema)
            .where("id", .in, Array(Set(rows.map(\.user_id)))).all().map(User.forPolicy)
        let byID = Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let relations = try await Relations.load(viewerID: viewer.id, people: people.compactMap(\.id), today: viewer.today, on: db)
        return rows.compactMap { row in
            guard let person = byID[row.user_id] else { return nil }
            let visible = PersonAccess.canSeeExists(person, relations.relation(to: person))
            return FeedItem(
                at: Feed.milliseconds(row.created_at), key: "member:\(SiteURL.id(row.id))", kind: "member", actorName: person.displayName,
                actorURL: visible ? SiteURL.person(username: person.username).path : nil, text: t("joined"), title: row.name,
                url: SiteURL.team(slug: row.slug).path, detail: nil)
        }
    }
}
