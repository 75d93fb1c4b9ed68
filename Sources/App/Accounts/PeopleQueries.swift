import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Queries that list people, each already narrowed to whom the viewer may see.
enum PeopleQueries {
    /// Everyone the viewer is connected to by a follow in either direction (pending included).
    static func connectedIDs(of viewer: User?, on db: any Database) async throws -> [UUID] {
        guard let viewerID = viewer?.id else { return [] }
        let out = try await FollowEdge.all(on: db) { $0.where("follower_id", .equal, viewerID) }.map(\.followee)
        let into = try await FollowEdge.all(on: db) { $0.where("followee_id", .equal, viewerID) }.map(\.follower)
        return [viewerID] + out + into
    }

    /// Friends: people who follow `userID` and whom `userID` follows, both accepted.
    static func friendIDs(of userID: UUID, on db: any Database) async throws -> [UUID] {
        struct Row: Decodable { let id: UUID }
        return try await db.sql.raw(
            """
            SELECT a.followee_id AS id FROM follows a
            JOIN follows b ON b.follower_id = a.followee_id AND b.followee_id = a.follower_id
            WHERE a.follower_id = \(bind: userID) AND a.status = 'accepted' AND b.status = 'accepted'
            """
        ).all(decoding: Row.self).map(\.id)
    }

    /// Restricts a query of users to people the viewer may know exist (see `PersonAccess.canSeeExists`).
    static func visible(_ query: SQLSelectBuilder, connected: [UUID], today: CalendarDate) -> SQLSelectBuilder {
        query.where { group in
            let group = group.where("visibility", .equal, User.Visibility.public.rawValue).orWhere { adult in
                adult.where("visibility", .equal, User.Visibility.followers.rawValue)
                    .where("birth_date", .isNot, SQLLiteral.null).where("birth_date", .lessThanOrEqual, User.sixteenCutoff(on: today))
            }
            return connected.isEmpty ? group : group.orWhere("id", .in, connected)
        }
    }

    /// Name or username search. `%` and `_` typed by the person match themselves, not anything.
    static func search(_ text: String, viewer: User?, pager: Pager, today: CalendarDate, on db: any Database) async throws -> [User] {
        let connected = try await connectedIDs(of: viewer, on: db)
        let needle = text.lowercased()
        let pattern = "%" + SQLLike.escape(needle) + "%"
        func like(_ column: String) -> any SQLExpression { SQLLike.matching(column, pattern) }
        return try await PersonLoader.select(on: db) { query in
            var query = visible(query, connected: connected, today: today)
            if !needle.isEmpty {
                query = query.where { $0.where(like("username")).orWhere(like("search_name")) }
            }
            return query.orderBy("search_name").orderBy("username").offset(pager.offset).limit(pager.fetchLimit)
        }
    }

    /// The followers (or followees) of `user` with an accepted follow, as the viewer may see them.
    static func follows(of user: User, direction: Direction, viewer: User?, pager: Pager, today: CalendarDate, on db: any Database) async throws -> [User] {
        let userID = try user.requireID()
        let connected = try await connectedIDs(of: viewer, on: db)
        let edges = try await FollowEdge.all(on: db) { query in
            query.where("status", .equal, Follow.Status.accepted.rawValue)
                .where(direction == .followers ? "followee_id" : "follower_id", .equal, userID)
        }
        let ids = edges.map { direction == .followers ? $0.follower : $0.followee }
        guard !ids.isEmpty else { return [] }
        return try await PersonLoader.select(on: db) { query in
            visible(query.where("id", .in, ids), connected: connected, today: today)
                .orderBy("search_name").offset(pager.offset).limit(pager.fetchLimit)
        }
    }

    enum Direction: String { case followers, following }
}

/// The profile page is the most visited page, so it is read with two plain SQL queries instead of
/// Fluent's reflective model loading (which costs more CPU than the queries themselves).
enum ProfileQuery {
    struct Row: Decodable {
        let id: UUID
        let username: String
        let display_name: String
        let bio: String?
        let birth_date: String?
        let gender: String
        let home_name: String?
        let visibility: String
        let avatar_file: String?
        let created_at: Date?
        let followers: Int
        let following: Int
    }

    struct SportRow: Decodable {
        let sport: String
        let skill: String
    }

    /// The person with their sports loaded, and their accepted follower and following counts.
    static func load(username: String, on db: any Database) async throws -> (user: User, followers: Int, following: Int)? {
        let sql = db.sql
        guard
            let row = try await sql.raw(
                """
                SELECT u.id, u.username, u.display_name, u.bio, u.birth_date, u.gender, u.home_name,
                       u.visibility, u.avatar_file, u.created_at,
                       (SELECT COUNT(*) FROM follows f WHERE f.followee_id = u.id AND f.status = 'accepted') AS followers,
                       (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id AND f.status = 'accepted') AS following
                FROM users u WHERE u.username = \(bind: username)
                """
            ).first(decoding: Row.self)
        else { return nil }
        let sports = try await sql.raw("SELECT sport, skill FROM user_sports WHERE user_id = \(bind: row.id)")
            .all(decoding: SportRow.self)

        let user = User()
        user.id = row.id
        user.username = row.username
        user.setDisplayName(row.display_name)
        user.bio = row.bio
        user.birthDate = row.birth_date
        user.gender = User.Gender(rawValue: row.gender) ?? .unspecified
        user.homeName = row.home_name
        user.visibility = User.Visibility(rawValue: row.visibility) ?? .private
        user.avatarFile = row.avatar_file
        user.createdAt = row.created_at
        user.$sports.value = sports.map { line in
            let sport = UserSport()
            sport.sport = line.sport
            sport.skill = line.skill
            return sport
        }
        return (user, row.followers, row.following)
    }
}
