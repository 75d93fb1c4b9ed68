import FieldhouseKit
import Fluent
import Foundation
import SQLKit

struct CreateLeagueTeam: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LeagueTeam.schema)
            .id()
            .field("league_id", .uuid, .required, .references(League.schema, .id, onDelete: .cascade))
            .field("team_id", .uuid, .required, .references(Team.schema, .id, onDelete: .cascade))
            .field("status", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "league_id", "team_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LeagueTeam.schema).delete()
    }
}
