import Fluent

/// Steps or pedal strokes per minute, from files (FIT, TCX, GPX's TrackPointExtension).
struct CreateCadenceSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create("cadence_samples", columns: [.init("rpm", .integer)], on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("cadence_samples").delete()
    }
}
