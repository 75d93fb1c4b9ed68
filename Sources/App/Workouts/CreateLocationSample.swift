import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateLocationSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create(
            "location_samples",
            columns: [
                .init("lat", .real), .init("lon", .real), .init("ele", .real, required: false),
                .init("accuracy", .real, required: false), .init("speed", .real, required: false),
            ], on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("location_samples").delete()
    }
}
