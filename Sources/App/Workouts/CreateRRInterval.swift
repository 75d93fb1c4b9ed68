import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateRRInterval: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create("rr_intervals", columns: [.init("ms", .real)], on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("rr_intervals").delete()
    }
}
