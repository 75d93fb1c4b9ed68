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
