import Fluent
import Foundation

/// A file that went into a workout, remembered by its SHA-256 so the same file uploaded again is
/// recognised as a duplicate without being read.
final class WorkoutFile: Model, @unchecked Sendable {
    static let schema = "workout_files"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Parent(key: "workout_id") var workout: Workout
    @Field(key: "sha256") var sha256: String
    @Field(key: "format") var format: String
    @Field(key: "filename") var filename: String
    @Field(key: "bytes") var bytes: Int
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(user: UUID, workout: UUID, sha256: String, format: String, filename: String, bytes: Int) {
        self.$user.id = user
        self.$workout.id = workout
        self.sha256 = sha256
        self.format = format
        self.filename = filename
        self.bytes = bytes
    }
}
