import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateStepSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create("step_samples", columns: [.init("count", .integer)], on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("step_samples").delete()
    }
}
