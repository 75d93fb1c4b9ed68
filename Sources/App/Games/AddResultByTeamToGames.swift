import Fluent

/// A season fixture's result waits for the other team: `result_by_team_id` names the team whose
/// manager entered it until the other team's manager confirms it (then it is cleared and counts).
struct AddResultByTeamToGames: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Game.schema).field("result_by_team_id", .uuid).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Game.schema).deleteField("result_by_team_id").update()
    }
}
