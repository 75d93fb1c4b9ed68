import Fluent
import SQLKit
import Vapor

/// The lists of `/challenges`, each one plain-SQL query narrowed to the viewer's own challenges.
enum ChallengeInbox {
    enum List: String, CaseIterable {
        case todo, judge, sent, finished
        /// Everyone's open public challenges (`/challenges/public`).
        case `public`

        var title: String {
            switch self {
            case .todo: t("Waiting for you")
            case .judge: t("Replies to judge")
            case .sent: t("Sent by you")
            case .finished: t("Finished")
            case .public: t("Public challenges")
            }
        }

        var empty: String {
            switch self {
            case .todo: t("No challenges are waiting for you. Send one to your friends!")
            case .judge: t("No replies are waiting for your judgement.")
            case .sent: t("You have no open challenges.")
            case .finished: t("Nothing finished yet.")
            case .public: t("No public challenges are open right now.")
            }
        }
    }

    struct Item: Encodable {
        let url: String
        let photoURL: String
        let orientation: Int
        let caption: String
        let who: String
        let detail: String
        let flags: [String]
        let when: String
    }

    private struct ChallengeRow: Decodable {
        let id: UUID
        let caption: String
        let deadline: Date?
        let created_at: Date
        let photo_id: UUID
        let orientation: Int
        let sizes: String
        let sender_id: UUID
        let is_public: Bool
        let recipient_count: Int
        let completed_count: Int
        let my_status: String?
        let my_reason: String?
    }

    private struct ReplyRow: Decodable {
        let response_id: UUID
        let id: UUID
        let caption: String
        let created_at: Date
        let photo_id: UUID
        let orientation: Int
        let sizes: String
        let replier_id: UUID
        let distance_m: Double?
        let taken_before: Bool
    }

    /// One page of `list` for `viewer`: `limit` rows from `offset`.
    static func items(_ list: List, viewer: User, limit: Int, offset: Int, flagMetres: Double, now: Date, on db: any Database) async throws -> [Item] {
        let sql = db.sql
        let me = try viewer.requireID()
        let format = Format(viewer)
        let imperial = viewer.units == .imperial
        let columns = SQLRaw(
            """
            c.id, c.caption, c.deadline, c.created_at, c.photo_id, p.orientation, p.sizes,
            c.sender_id, c.is_public, c.recipient_count, c.completed_count
            """)
        let rows: [ChallengeRow]
        switch list {
        case .judge:
            let replies = try await sql.raw(
                """
                SELECT r.id AS response_id, c.id, c.caption, r.created_at, r.photo_id, p.orientation, p.sizes,
                       r.user_id AS replier_id, r.distance_m, r.taken_before
                FROM challenge_responses r
                JOIN challenges c ON c.id = r.challenge_id
                JOIN photos p ON p.id = r.photo_id
                WHERE r.challenger_id = \(bind: me) AND r.status = 'pending'
                ORDER BY r.created_at ASC LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
                """
            ).all(decoding: ReplyRow.self)
            // The sender judges: a reply from someone they know is named, a child too (`ChallengeAccess.participant`).
            let names = try await knownNames(replies.map(\.replier_id), viewer: viewer, listed: false, now: now, on: db)
            return replies.map { row in
                var flags: [String] = []
                if let metres = row.distance_m, metres > flagMetres {
                    flags.append(t("Taken {distance} away", Format.proximity(metres, imperial: imperial)))
                }
                if row.taken_before { flags.append(t("Photo taken before the challenge")) }
                return Item(
                    url: SiteURL.challenge(row.id).path + "#reply-" + SiteURL.id(row.response_id),
                    photoURL: Photo.url(row.photo_id, size: row.sizes == Photo.Sizes.ready.rawValue ? .small : nil), orientation: row.orientation,
                    caption: row.caption, who: t("Reply from {name}", names[row.replier_id] ?? t("Someone")), detail: t("Waiting for your judgement"),
                    flags: flags, when: format.shortWhen(row.created_at)
                )
            }
        case .todo:
            // Ordered by the recipient row's own time (the challenge's, to the millisecond) so the
            // (user_id, created_at) index yields the page in order and the per-row lookups of
            // "my latest reply" run only for the rows shown.
            rows = try await sql.raw(
                """
                SELECT \(columns),
                  (SELECT r.status FROM challenge_responses r WHERE r.challenge_id = c.id AND r.user_id = \(bind: me)
                   ORDER BY r.created_at DESC LIMIT 1) AS my_status,
                  (SELECT r.reason FROM challenge_responses r WHERE r.challenge_id = c.id AND r.user_id = \(bind: me)
                   ORDER BY r.created_at DESC LIMIT 1) AS my_reason
                FROM challenge_recipients cr
                JOIN challenges c ON c.id = cr.challenge_id
                JOIN users u ON u.id = c.sender_id
                JOIN photos p ON p.id = c.photo_id
                WHERE cr.user_id = \(bind: me) AND cr.completed_at IS NULL AND (c.deadline IS NULL OR c.deadline > \(bind: now))
                ORDER BY cr.created_at DESC LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
                """
            ).all(decoding: ChallengeRow.self)
        case .sent:
            rows = try await sql.raw(
                """
                SELECT \(columns), NULL AS my_status, NULL AS my_reason
                FROM challenges c JOIN users u ON u.id = c.sender_id JOIN photos p ON p.id = c.photo_id
                WHERE c.sender_id = \(bind: me) AND (c.deadline IS NULL OR c.deadline > \(bind: now))
                  AND (c.is_public = \(bind: true) OR c.completed_count < c.recipient_count)
                ORDER BY c.created_at DESC LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
                """
            ).all(decoding: ChallengeRow.self)
        case .public:
            rows = try await sql.raw(
                """
                SELECT \(columns), NULL AS my_status, NULL AS my_reason
                FROM challenges c JOIN users u ON u.id = c.sender_id JOIN photos p ON p.id = c.photo_id
                WHERE c.is_public = \(bind: true) AND (c.deadline IS NULL OR c.deadline > \(bind: now))
                ORDER BY c.created_at DESC LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
                """
            ).all(decoding: ChallengeRow.self)
        case .finished:
            rows = try await sql.raw(
                """
                SELECT * FROM (
                  SELECT \(columns), NULL AS my_status, NULL AS my_reason
                  FROM challenges c JOIN users u ON u.id = c.sender_id JOIN photos p ON p.id = c.photo_id
                  WHERE c.sender_id = \(bind: me) AND ((c.deadline IS NOT NULL AND c.deadline <= \(bind: now))
                    OR (c.is_public = \(bind: false) AND c.completed_count >= c.recipient_count))
                  UNION ALL
                  SELECT \(columns), CASE WHEN cr.completed_at IS NULL THEN 'missed' ELSE 'accepted' END AS my_status, NULL AS my_reason
                  FROM challenge_recipients cr
                  JOIN challenges c ON c.id = cr.challenge_id
                  JOIN users u ON u.id = c.sender_id
                  JOIN photos p ON p.id = c.photo_id
                  WHERE cr.user_id = \(bind: me) AND (cr.completed_at IS NOT NULL OR (c.deadline IS NOT NULL AND c.deadline <= \(bind: now)))
                ) f ORDER BY created_at DESC LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
                """
            ).all(decoding: ChallengeRow.self)
        }
        let names = try await knownNames(rows.map(\.sender_id), viewer: viewer, listed: true, now: now, on: db)
        return rows.map { row in
            let mine = row.sender_id == me
            let detail: String
            switch (list, row.my_status) {
            case (.todo, "pending"): detail = t("Your reply is waiting for judgement")
            case (.todo, "rejected"): detail = row.my_reason.map { t("Not accepted: {reason}. Try again!", $0) } ?? t("Not accepted. Try again!")
            case (.finished, "accepted"): detail = t("You completed it")
            case (.finished, "missed"): detail = t("Closed before you completed it")
            case (.public, _):
                detail =
                    tn("{count} completed", "{count} completed", row.completed_count)
                    + (row.deadline.map { " · " + t("due {date}", format.shortWhen($0)) } ?? "")
            default:
                if mine {
                    detail = ChallengePage.progress(recipients: row.recipient_count, completed: row.completed_count, isPublic: row.is_public)
                } else {
                    detail = row.deadline.map { t("Due {date}", format.shortWhen($0)) } ?? t("No deadline")
                }
            }
            let who =
                mine && list == .public
                ? t("From you")
                : mine
                    ? (row.is_public ? t("Public challenge") : tn("To {count} friend", "To {count} friends", row.recipient_count))
                    : t("From {name}", names[row.sender_id] ?? t("Someone"))
            return Item(
                url: SiteURL.challenge(row.id).path, photoURL: Photo.url(row.photo_id, size: row.sizes == Photo.Sizes.ready.rawValue ? .small : nil),
                orientation: row.orientation, caption: row.caption, who: who, detail: detail, flags: [],
                when: format.shortWhen(row.created_at)
            )
        }
    }

    /// The names of these people as the viewer may know them (`PersonAccess.knownName`, and on a
    /// list others open also `listedName`); the people the viewer may not know of are missing.
    static func knownNames(_ people: [UUID], viewer: User, listed: Bool, now: Date, on db: any Database) async throws -> [UUID: String] {
        let ids = Array(Set(people))
        guard !ids.isEmpty else { return [:] }
        let users = try await User.query(on: db).filter(\.$id ~~ ids).all()
        let relations = try await Relations.load(viewer: viewer, people: ids, today: LocalTime.utcDay(of: now), on: db)
        var names: [UUID: String] = [:]
        for user in users {
            let relation = relations.relation(to: user)
            guard let id = user.id, PersonAccess.knownName(of: user, relation) != nil else { continue }
            // A child is "a player under 16" on these lists too, to those outside their teams and follows.
            names[id] = listed ? PersonAccess.listedName(user, relation) ?? PersonAccess.childOnAList : user.displayName
        }
        return names
    }
}
