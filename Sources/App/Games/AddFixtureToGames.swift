import Fluent

/// A league season's fixture is two games, one for each team, sharing `fixture_id`; `league_round`
/// groups them into rounds, and `plays_away` marks the away team's copy, which the table skips.
struct AddFixtureToGames: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one at a time.
        try await database.schema(Game.schema).field("fixture_id", .uuid).update()
        try await database.schema(Game.schema).field("league_round", .int).update()
        try await database.schema(Game.schema).field("plays_away", .bool).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Game.schema).deleteField("fixture_id").update()
        try await database.schema(Game.schema).deleteField("league_round").update()
        try await database.schema(Game.schema).deleteField("plays_away").update()
    }
}
