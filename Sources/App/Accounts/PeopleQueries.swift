import Fluent
import SQLKit
import Vapor

/// Queries that list people, each already narrowed to whom the viewer may see.
enum PeopleQueries {
    /// Everyone the viewer is connected to by a follow in either direction (pending included).
    static func connectedIDs(of viewer: User?, on db: any Database) async throws -> [UUID] {
        guard let viewerID = viewer?.id else { return [] }
        let out = try await Follow.query(on: db).filter(\.$follower.$id == viewerID).all().map { $0.$followee.id }
        let into = try await Follow.query(on: db).filter(\.$followee.$id == viewerID).all().map { $0.$follower.id }
        return [viewerID] + out + into
    }

    /// Restricts a user query to people the viewer may know exist (see `ProfilePolicy.canSeeExists`).
    static func visible(_ query: QueryBuilder<User>, connected: [UUID]) -> QueryBuilder<User> {
        query.group(.or) { group in
            group.filter(\.$visibility != .private)
            if !connected.isEmpty { group.filter(\.$id ~~ connected) }
        }
    }

    /// Name or username search. `%` and `_` typed by the person match themselves, not anything.
    static func search(_ text: String, viewer: User?, pager: Pager, on db: any Database) async throws -> [User] {
        let connected = try await connectedIDs(of: viewer, on: db)
        var query = visible(User.query(on: db), connected: connected)
        let needle = text.lowercased()
        if !needle.isEmpty {
            let escaped = needle.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            let pattern = "%" + escaped + "%"
            func like(_ column: String) -> DatabaseQuery.Filter {
                .sql(SQLList([SQLBinaryExpression(SQLColumn(column), .like, SQLBind(pattern)), SQLRaw("ESCAPE '\\'")], separator: SQLRaw(" ")))
            }
            query = query.group(.or) { $0.filter(like("username")).filter(like("search_name")) }
        }
        return try await query.with(\.$sports)
            .sort(\.$searchName).sort(\.$username)
            .offset(pager.offset).limit(pager.fetchLimit).all()
    }

    /// The followers (or followees) of `user` with an accepted follow, as the viewer may see them.
    static func follows(of user: User, direction: Direction, viewer: User?, pager: Pager, on db: any Database) async throws -> [User] {
        let userID = try user.requireID()
        let connected = try await connectedIDs(of: viewer, on: db)
        let follows = Follow.query(on: db).filter(\.$status == .accepted)
        let ids: [UUID]
        switch direction {
        case .followers:
            ids = try await follows.filter(\.$followee.$id == userID).all().map { $0.$follower.id }
        case .following:
            ids = try await follows.filter(\.$follower.$id == userID).all().map { $0.$followee.id }
        }
        guard !ids.isEmpty else { return [] }
        return try await visible(User.query(on: db).filter(\.$id ~~ ids), connected: connected)
            .with(\.$sports).sort(\.$searchName).offset(pager.offset).limit(pager.fetchLimit).all()
    }

    enum Direction: String { case followers, following }

    static func followCounts(of userID: UUID, on db: any Database) async throws -> (followers: Int, following: Int) {
        let followers = try await Follow.query(on: db).filter(\.$followee.$id == userID).filter(\.$status == .accepted).count()
        let following = try await Follow.query(on: db).filter(\.$follower.$id == userID).filter(\.$status == .accepted).count()
        return (followers, following)
    }
}
