import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// The games that concern one person: every game of their teams and every game they are on the
/// list of (pick-up games, requests, waitlists, substitute places). One query serves `/games` and
/// the calendar feeds.
enum MyGames {
    struct Row: Decodable {
        let id: UUID
        let kind: String
        let sport: String
        let starts_at: Date
        let duration_minutes: Int
        let time_zone: String
        let place_name: String?
        let latitude: Double?
        let longitude: Double?
        let privacy: String
        let description: String
        let status: String
        let sequence: Int
        let opponent_name: String?
        let team_id: UUID?
        let team_name: String?
        let team_slug: String?
        let team_privacy: String?
        let organiser_id: UUID?
        let my_status: String?
        let is_sub: Bool?
        let is_member: Int
        let updated_at: Date?

        var game: Game.Kind { Game.Kind(rawValue: kind) ?? .pickup }
        var isCancelled: Bool { status == Game.Status.cancelled.rawValue }
        var coordinate: Coordinate? { latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } } }
        var endsAt: Date { starts_at.addingTimeInterval(Double(duration_minutes) * 60) }
        var myStatus: GamePlayer.Status? { my_status.flatMap(GamePlayer.Status.init(rawValue:)) }
        /// The game page's rule: someone who only asked to join sees the area, not the place.
        func canSeeExactPlace(viewer: UUID) -> Bool {
            GameAccess.canSeeExactPlace(
                privacy: team_privacy ?? privacy, isMember: is_member == 1, isOrganiser: game == .pickup && organiser_id == viewer,
                holdsPlace: (game == .pickup || is_member == 1 || is_sub == true) && GameAccess.holdsPlace(myStatus, isSub: is_sub ?? false))
        }
        var title: String {
            Game.title(kind: game, sportLabel: Sport(rawValue: sport)?.label ?? sport, teamName: team_name, opponent: opponent_name)
        }
        /// Waiting on someone: a request, the waitlist, or a team game not answered yet.
        var isPending: Bool {
            guard !isCancelled else { return false }
            if let status = myStatus { return status == .requested || status == .waitlisted || status == .offered }
            return game == .team && is_member == 1
        }
    }

    enum Range {
        case upcoming(limit: Int)
        case past(limit: Int, offset: Int)
        case feed(since: Date, limit: Int)
    }

    static func load(for userID: UUID, team: UUID? = nil, range: Range, now: Date, on db: any Database) async throws -> [Row] {
        // The person's games are found from their side (their memberships and their places, both
        // indexed by person) and only then joined to the games, never by scanning all games.
        var sql: SQLQueryString = """
            SELECT g.id, g.kind, g.sport, g.starts_at, g.duration_minutes, g.time_zone, g.place_name, g.latitude, g.longitude,
                   g.privacy, g.description, g.status, g.sequence, g.opponent_name, g.team_id, g.updated_at, g.organiser_id,
                   t.name AS team_name, t.slug AS team_slug, t.privacy AS team_privacy, p.status AS my_status, p.is_sub,
                   CASE WHEN m.id IS NULL THEN 0 ELSE 1 END AS is_member
            FROM (SELECT g2.id FROM games g2 JOIN memberships m2 ON m2.team_id = g2.team_id WHERE m2.user_id = \(bind: userID)
                  UNION SELECT p2.game_id FROM game_players p2 WHERE p2.user_id = \(bind: userID)) AS mine
            JOIN games g ON g.id = mine.id
            LEFT JOIN teams t ON t.id = g.team_id
            LEFT JOIN memberships m ON m.team_id = g.team_id AND m.user_id = \(bind: userID)
            LEFT JOIN game_players p ON p.game_id = g.id AND p.user_id = \(bind: userID)
            WHERE (g.team_id IS NULL OR m.id IS NOT NULL OR p.is_sub = \(bind: true))
            """
        if let team {
            sql.appendInterpolation(raw: " AND g.team_id = ")
            sql.appendInterpolation(bind: team)
        }
        switch range {
        case .upcoming(let limit):
            // Still upcoming until it ends; a game that has begun is still today's game.
            sql.appendInterpolation(raw: " AND g.starts_at >= ")
            sql.appendInterpolation(bind: now.addingTimeInterval(-86_400))
            sql.appendInterpolation(raw: " ORDER BY g.starts_at, g.id LIMIT \(limit)")
        case .past(let limit, let offset):
            sql.appendInterpolation(raw: " AND g.starts_at < ")
            sql.appendInterpolation(bind: now)
            sql.appendInterpolation(raw: " ORDER BY g.starts_at DESC, g.id LIMIT \(limit) OFFSET \(offset)")
        case .feed(let since, let limit):
            sql.appendInterpolation(raw: " AND g.starts_at >= ")
            sql.appendInterpolation(bind: since)
            sql.appendInterpolation(raw: " ORDER BY g.starts_at, g.id LIMIT \(limit)")
        }
        let rows = try await db.sql.raw(sql).all(decoding: Row.self)
        if case .upcoming = range { return rows.filter { $0.endsAt > now } }
        return rows
    }
}
