import Fluent
import SQLKit

struct CreateWorkout: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Workout.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("sport", .string, .required)
            .field("name", .string, .required)
            .field("start_ms", .int64, .required)
            .field("end_ms", .int64)
            .field("external_id", .string)
            .field("source", .string, .required)
            .field("visibility", .string, .required)
            .field("notes", .string)
            .field("device_distance_m", .double)
            .field("device_calories", .int)
            .field("segment_breaks", .string)
            .field("duration_s", .double, .required)
            .field("moving_s", .double, .required)
            .field("distance_m", .double)
            .field("elevation_gain_m", .double)
            .field("min_speed_mps", .double)
            .field("avg_speed_mps", .double)
            .field("max_speed_mps", .double)
            .field("min_hr", .int)
            .field("avg_hr", .int)
            .field("max_hr", .int)
            .field("calories_kcal", .double)
            .field("calorie_method", .string)
            .field("steps", .int)
            .field("trimp", .double)
            .field("zone_max_hr", .int)
            .field("zones", .string)
            .field("streams", .string, .required)
            .field("summary_notes", .string)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            // The same external id never makes a second workout, even when two requests race.
            .unique(on: "user_id", "external_id")
            .create()
        // History pages and overlap checks look workouts up by person and start.
        try await database.sql.create(index: "workouts_user_start").on(Workout.schema).column("user_id").column("start_ms").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Workout.schema).delete()
    }
}
