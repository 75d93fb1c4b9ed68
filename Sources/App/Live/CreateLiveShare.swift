import Fluent
import SQLKit

/// Who may watch a recording live: one row per workout shared while it records, and the people
/// chosen by name when the audience is "people".
struct CreateLiveShare: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LiveShare.schema)
            .id()
            .field("workout_id", .uuid, .required, .references("workouts", "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("audience", .string, .required)
            .field("team_id", .uuid, .references("teams", "id", onDelete: .setNull))
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .unique(on: "workout_id")
            .create()
        try await database.sql.create(index: "live_shares_user_idx").on(LiveShare.schema).column("user_id").run()
        try await database.schema(LiveSharePerson.schema)
            .id()
            .field("share_id", .uuid, .required, .references(LiveShare.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .unique(on: "share_id", "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LiveSharePerson.schema).delete()
        try await database.schema(LiveShare.schema).delete()
    }
}
