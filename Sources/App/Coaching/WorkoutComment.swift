import Fluent
import SQLKit
import Vapor

/// A note under a workout between the athlete and their coaches, in Markdown (raw HTML off).
final class WorkoutComment: Model, @unchecked Sendable {
    static let schema = "workout_comments"
    static let maxLength = 4000

    @ID(key: .id) var id: UUID?
    @Parent(key: "workout_id") var workout: Workout
    @Parent(key: "author_id") var author: User
    @Field(key: "body") var body: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    init(workout: UUID, author: UUID, body: String) {
        self.$workout.id = workout
        self.$author.id = author
        self.body = body
    }
}

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
        try await (database as! any SQLDatabase).create(index: "workout_comments_workout").on(WorkoutComment.schema).column("workout_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutComment.schema).delete()
    }
}
