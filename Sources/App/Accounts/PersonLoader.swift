import Fluent
import Foundation
import SQLKit
import Vapor

/// Loads people for lists (dashboard, search, follower lists, friends) with plain SQL: only the
/// columns a `PersonCard` shows, plus their sports. Fluent's reflective loading of full `User`
/// models was most of the CPU time of these pages.
enum PersonLoader {
    /// The people with these ids, in the order given.
    static func load(ids: [UUID], on db: any Database) async throws -> [User] {
        guard !ids.isEmpty else { return [] }
        let users = try await select(on: db) { $0.where("id", .in, ids) }
        let byID = Dictionary(uniqueKeysWithValues: users.compactMap { user in user.id.map { ($0, user) } })
        return ids.compactMap { byID[$0] }
    }

    /// People matching `filter`, in the order `filter` sets, with sports loaded.
    static func select(on db: any Database, _ filter: (SQLSelectBuilder) -> SQLSelectBuilder) async throws -> [User] {
        let sql = db.sql
        let query = sql.select()
            .columns("id", "username", "display_name", "bio", "visibility", "birth_date", "avatar_file")
            .from(User.schema)
        let rows = try await filter(query).all()
        let users = try rows.map { row in
            let user = try User.forPolicy(row)
            user.bio = try row.decode(column: "bio", as: String?.self)
            user.avatarFile = try row.decode(column: "avatar_file", as: String?.self)
            return user
        }
        let ids = users.compactMap(\.id)
        guard !ids.isEmpty else { return users }
        var sports: [UUID: [UserSport]] = [:]
        for row in try await sql.select().columns("user_id", "sport", "skill").from(UserSport.schema).where("user_id", .in, ids).all() {
            let line = UserSport()
            line.sport = try row.decode(column: "sport", as: String.self)
            line.skill = try row.decode(column: "skill", as: String.self)
            sports[try row.decode(column: "user_id", as: UUID.self), default: []].append(line)
        }
        for user in users { user.$sports.value = sports[user.id!] ?? [] }
        return users
    }
}
