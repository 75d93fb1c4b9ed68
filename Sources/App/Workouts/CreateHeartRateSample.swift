import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateHeartRateSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create("heart_rate_samples", columns: [.init("bpm", .integer)], on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("heart_rate_samples").delete()
    }
}
