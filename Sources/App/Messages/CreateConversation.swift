import Fluent
import SQLKit

struct CreateConversation: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Conversation.schema)
            .id()
            .field("kind", .string, .required)
            .field("team_id", .uuid, .references("teams", "id", onDelete: .cascade))
            .field("game_id", .uuid, .references("games", "id", onDelete: .cascade))
            .field("plan_id", .uuid, .references("plans", "id", onDelete: .cascade))
            .field("person_a", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("person_b", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("last_message_at", .datetime)
            .field("created_at", .datetime)
            .unique(on: "team_id")
            .unique(on: "game_id")
            .unique(on: "plan_id")
            .unique(on: "person_a", "person_b")
            .create()
        let sql = database.sql
        try await sql.create(index: "conversations_person_b_idx").on(Conversation.schema).column("person_b").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Conversation.schema).delete()
    }
}
