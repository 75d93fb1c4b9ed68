import Fluent
import SQLKit

struct CreateFollow: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Follow.schema)
            .id()
            .field("follower_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("followee_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("status", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "follower_id", "followee_id")
            .create()
        // The unique constraint indexes by follower; listing someone's followers needs the other side.
        try await database.sql.create(index: "follows_followee_idx")
            .on(Follow.schema).column("followee_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Follow.schema).delete()
    }
}
