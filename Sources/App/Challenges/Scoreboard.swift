import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Challenge scores: the stars of a person's accepted replies, plus one point for every accepted
/// reply to a challenge they sent.
enum Scoreboard {
    enum Scope: String { case friends, `public` }
    enum Period: String { case week, all }

    struct Entry: Encodable {
        let rank: Int
        let name: String
        let url: String?
        let score: Int
        let isMe: Bool
    }

    private struct Row: Decodable {
        let person: UUID
        let display_name: String
        let username: String
        let visibility: String
        let birth_date: String?
        let score: Int
    }

    /// Points earned since `since`, from public challenges only when `publicOnly`.
    private static func points(since: Date?, publicOnly: Bool) -> SQLQueryString {
        let from: SQLQueryString =
            publicOnly
            ? "challenge_responses r JOIN challenges c ON c.id = r.challenge_id AND c.is_public = \(bind: true)"
            : "challenge_responses r"
        let when: SQLQueryString = since.map { "AND r.judged_at >= \(bind: $0)" } ?? ""
        return """
            SELECT r.user_id AS person, r.stars AS points FROM \(from) WHERE r.status = 'accepted' \(when)
            UNION ALL
            SELECT r.challenger_id AS person, 1 AS points FROM \(from) WHERE r.status = 'accepted' \(when)
            """
    }

    static func entries(scope: Scope, period: Period, viewer: User, now: Date, on db: any Database) async throws -> [Entry] {
        let me = try viewer.requireID()
        let since = period == .week ? CalendarPeriod.week.start(zone: viewer.timeZone, now: now) : nil
        let people: SQLQueryString
        switch scope {
        case .friends:
            let ids = try await PeopleQueries.friendIDs(of: me, on: db) + [me]
            people = "s.person IN (\(binds: ids))"
        case .public:
            // Public challenges are open to everyone signed in, but a private profile is not put on a
            // list for strangers (see `PersonAccess.canSeeExists`); a child is, as "a player under 16".
            let connected = try await PeopleQueries.connectedIDs(of: viewer, on: db)
            people = "(u.visibility <> 'private' OR u.id IN (\(binds: connected)))"
        }
        let rows = try await db.sql.raw(
            """
            SELECT s.person, u.display_name, u.username, u.visibility, u.birth_date, CAST(SUM(s.points) AS BIGINT) AS score
            FROM (\(points(since: since, publicOnly: scope == .public))) s JOIN users u ON u.id = s.person
            WHERE \(people)
            GROUP BY s.person, u.display_name, u.username, u.visibility, u.birth_date
            ORDER BY score DESC, u.display_name ASC LIMIT 50
            """
        ).all(decoding: Row.self)
        let users = rows.map { row in
            let user = User()
            (user.id, user.username, user.displayName, user.birthDate) = (row.person, row.username, row.display_name, row.birth_date)
            user.visibility = User.Visibility(rawValue: row.visibility) ?? .private
            return user
        }
        let relations = try await Relations.load(viewer: viewer, people: rows.map(\.person), today: LocalTime.utcDay(of: now), on: db)
        var entries: [Entry] = []
        for (index, (row, user)) in zip(rows, users).enumerated() {
            // Equal scores share a rank.
            let rank = index > 0 && rows[index - 1].score == row.score ? entries[index - 1].rank : index + 1
            let name = PersonAccess.listedName(user, relations.relation(to: user))
            entries.append(
                Entry(
                    rank: rank, name: name ?? PersonAccess.childOnAList, url: name == nil ? nil : SiteURL.person(username: row.username).path,
                    score: row.score, isMe: row.person == me))
        }
        return entries
    }

    /// A person's all-time score, for their profile.
    static func score(of userID: UUID, on db: any Database) async throws -> Int {
        struct Total: Decodable { let score: Int? }
        return try await db.sql.raw(
            """
            SELECT CAST(SUM(s.points) AS BIGINT) AS score FROM (\(points(since: nil, publicOnly: false))) s WHERE s.person = \(bind: userID)
            """
        ).first(decoding: Total.self)?.score ?? 0
    }
}
