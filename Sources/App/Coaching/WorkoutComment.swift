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
    /// From the app's clock, as the workout page's other comments are, so one thread is in order.
    @OptionalField(key: "created_at") var createdAt: Date?
    /// Set when the author changes the text.
    @OptionalField(key: "updated_at") var updatedAt: Date?

    init() {}

    init(workout: UUID, author: UUID, body: String, at now: Date) {
        self.$workout.id = workout
        self.$author.id = author
        self.body = body
        createdAt = now
    }
}
