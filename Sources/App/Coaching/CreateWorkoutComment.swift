import Fluent
import SQLKit
import Vapor

struct CreateWorkoutComment: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WorkoutComment.schema)
            .id()
            .field("workout_id", .uuid, .required, .references(Workout.schema, .id, onDelete: .cascade))
            .field("author_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("body", .string, .required)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .create()
        try await database.sql.create(index: "workout_comments_workout").on(WorkoutComment.schema).column("workout_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutComment.schema).delete()
    }
}
