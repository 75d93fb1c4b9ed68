import Fluent

/// Heart rate per person and minute (min, max, sum, count), kept up to date as samples arrive, so
/// a day's or a month's graph reads 1,440 rows a day instead of 86,400.
struct CreateHeartRateMinute: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create(
            "heart_rate_minutes", key: "minute",
            columns: [.init("min_bpm", .integer), .init("max_bpm", .integer), .init("sum_bpm", .integer), .init("samples", .integer)], on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("heart_rate_minutes").delete()
    }
}
