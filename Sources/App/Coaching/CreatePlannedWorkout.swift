import FieldhouseKit
import Fluent
import SQLKit
import Vapor

struct CreatePlannedWorkout: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlannedWorkout.schema)
            .id()
            .field("coach_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("athlete_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("day", .string, .required)
            .field("sport", .string, .required)
            .field("duration_s", .double)
            .field("distance_m", .double)
            .field("description", .string, .required)
            .field("created_at", .datetime)
            .create()
        try await database.sql.create(index: "planned_workouts_athlete_day").on(PlannedWorkout.schema)
            .column("athlete_id").column("day").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlannedWorkout.schema).delete()
    }
}
