import Fluent
import SQLKit

struct CreateChallengeRecipient: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ChallengeRecipient.schema)
            .id()
            .field("challenge_id", .uuid, .required, .references(Challenge.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("completed_at", .datetime)
            .field("created_at", .datetime)
            .unique(on: "challenge_id", "user_id")
            .create()
        try await database.sql.create(index: "challenge_recipients_user_idx")
            .on(ChallengeRecipient.schema).column("user_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChallengeRecipient.schema).delete()
    }
}
