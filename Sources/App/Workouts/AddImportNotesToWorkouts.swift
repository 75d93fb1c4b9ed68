import Fluent

/// What an import left out of a file (readings no body produces, points without a time), kept
/// apart from the summary's notes because those are rewritten whenever the workout is summarised again.
struct AddImportNotesToWorkouts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Workout.schema).field("import_notes", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Workout.schema).deleteField("import_notes").update()
    }
}
