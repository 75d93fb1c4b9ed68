import Fluent

/// Heart rate per person and minute (min, max, sum, count), kept up to date as samples arrive, so
/// a day's or a month's graph reads 1,440 rows a day instead of 86,400.
struct CreateHeartRateMinute: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("heart_rate_minutes")
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("minute", .int64, .required)
            .field("min_bpm", .int, .required)
            .field("max_bpm", .int, .required)
            .field("sum_bpm", .int64, .required)
            .field("samples", .int, .required)
            .constraint(.constraint(.compositeIdentifier([.key("user_id"), .key("minute")]), name: "heart_rate_minutes_pkey"))
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("heart_rate_minutes").delete()
    }
}
