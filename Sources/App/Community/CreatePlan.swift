import Fluent
import SQLKit

struct CreatePlan: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Plan.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("game_id", .uuid, .required, .references("games", "id", onDelete: .cascade))
            .field("audience", .string, .required)
            .field("team_id", .uuid, .references("teams", "id", onDelete: .cascade))
            .field("text", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "game_id")
            .create()
        let sql = database.sql
        // The feed reads plans newest first, by poster and by team.
        try await sql.create(index: "plans_user_idx").on(Plan.schema).column("user_id").column("created_at").run()
        try await sql.create(index: "plans_team_idx").on(Plan.schema).column("team_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Plan.schema).delete()
    }
}
