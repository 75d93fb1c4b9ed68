import Fluent
import SQLKit

/// Heart rate per person and quarter hour (min, max, sum, count, and the lowest complete
/// five-minute mean inside it), kept with the minute rollup: a month's graph and its daily resting
/// heart rate read 2,880 rows instead of 43,200. Quarter hours, because every time zone is a whole
/// number of them from UTC, so each belongs to one local day.
struct CreateHeartRateQuarter: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SampleTable.create(
            "heart_rate_quarters", key: "quarter",
            columns: [
                .init("min_bpm", .integer), .init("max_bpm", .integer), .init("sum_bpm", .integer), .init("samples", .integer),
                .init("rest_bpm", .real, required: false),
            ], on: database)
        // Whatever minutes are already stored.
        try await database.sql.raw(SampleStore.quarterRollUp(user: nil, minutes: nil)).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("heart_rate_quarters").delete()
    }
}
