import Fluent
import Foundation

struct CreateWorkoutFile: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WorkoutFile.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("workout_id", .uuid, .required, .references(Workout.schema, .id, onDelete: .cascade))
            .field("sha256", .string, .required)
            .field("format", .string, .required)
            .field("filename", .string, .required)
            .field("bytes", .int, .required)
            .field("created_at", .datetime)
            .unique(on: "user_id", "sha256")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutFile.schema).delete()
    }
}
