import Fluent
import Foundation
import SQLKit

/// What the feed shows under its entries: kudos on workouts (how many, and whether the viewer gave
/// some), a gift button, and how many comments each workout, plan and badge has.
enum FeedResponses {
    static func annotate(_ items: [FeedItem], viewer: UUID, on db: any Database) async throws -> [FeedItem] {
        try await comments(kudos(items, viewer: viewer, on: db), on: db)
    }

    static func comments(_ items: [FeedItem], on db: any Database) async throws -> [FeedItem] {
        let keys = items.map(\.key).filter { FeedComment.subjectKinds.contains(String($0.prefix { $0 != ":" })) }
        guard !keys.isEmpty else { return items }
        struct Row: Decodable {
            let subject: String
            let total: Int
        }
        let rows = try await db.sql.raw(
            "SELECT subject, COUNT(*) AS total FROM feed_comments WHERE subject IN (\(binds: keys)) GROUP BY subject"
        ).all(decoding: Row.self)
        let counts = Dictionary(rows.map { ($0.subject, $0.total) }, uniquingKeysWith: { first, _ in first })
        let commentable = Set(keys)
        return items.map { item in
            guard commentable.contains(item.key) else { return item }
            var item = item
            item.comments = counts[item.key] ?? 0
            item.commentsURL = SiteURL.feedComments(on: item.key)
            return item
        }
    }

    private static func kudos(_ items: [FeedItem], viewer: UUID, on db: any Database) async throws -> [FeedItem] {
        let ids = items.compactMap { $0.kind == "workout" ? UUID(uuidString: String($0.key.dropFirst("workout:".count))) : nil }
        guard !ids.isEmpty else { return items }
        struct Row: Decodable {
            let workout_id: UUID
            let total: Int
            let mine: Int
        }
        let rows = try await db.sql.raw(
            """
            SELECT workout_id, COUNT(*) AS total, SUM(CASE WHEN giver_id = \(bind: viewer) THEN 1 ELSE 0 END) AS mine
            FROM kudos WHERE workout_id IN (\(binds: ids)) GROUP BY workout_id
            """
        ).all(decoding: Row.self)
        let byID = Dictionary(rows.map { ($0.workout_id, $0) }, uniquingKeysWith: { first, _ in first })
        return items.map { item in
            guard item.kind == "workout", let id = UUID(uuidString: String(item.key.dropFirst("workout:".count))) else { return item }
            var item = item
            item.kudos = byID[id]?.total ?? 0
            item.gaveKudos = (byID[id]?.mine ?? 0) > 0
            item.kudosAction = SiteURL.workoutKudos(id).path
            item.canGiveKudos = item.actorURL != nil && !item.isViewers
            if item.canGiveKudos { item.giftURL = SiteURL.newGift(for: "workout:\(SiteURL.id(id))") }
            return item
        }
    }
}
