import Fluent
import SQLKit

struct CreateGamePlayer: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(GamePlayer.schema)
            .id()
            .field("game_id", .uuid, .required, .references(Game.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("status", .string, .required)
            .field("note", .string)
            .field("is_sub", .bool, .required)
            .field("queued_at", .datetime, .required)
            .field("created_at", .datetime)
            .unique(on: "game_id", "user_id")
            .create()
        try await database.sql.create(index: "game_players_user_idx")
            .on(GamePlayer.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(GamePlayer.schema).delete()
    }
}
