import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateMotionSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create("motion_samples", columns: [.init("activity", .text), .init("confidence", .integer, required: false)], on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("motion_samples").delete()
    }
}
