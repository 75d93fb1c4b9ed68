import Fluent
import SQLKit

struct CreateKudos: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Kudos.schema)
            .id()
            .field("workout_id", .uuid, .required, .references("workouts", "id", onDelete: .cascade))
            .field("giver_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime)
            .unique(on: "workout_id", "giver_id")
            .create()
        // Kudos a person gave, for their export and their account's deletion.
        try await database.sql.create(index: "kudos_giver_idx").on(Kudos.schema).column("giver_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Kudos.schema).delete()
    }
}
