import Fluent

/// The thinned series a workout page draws (`WorkoutSeries`), stored with the workout so its first
/// view does not read the samples. Empty until a file import or the first view fills it.
struct AddSeriesToWorkouts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Workout.schema).field("series", .data).update()
        // Moved on by every change that drops the series (see `WorkoutSeries.load`).
        try await database.schema(Workout.schema).field("series_version", .int64, .required, .sql(.default(0))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Workout.schema).deleteField("series_version").update()
        try await database.schema(Workout.schema).deleteField("series").update()
    }
}
