import Fluent

/// One row per person and week nudged (see `WeeklyNudge`).
struct CreateWeeklyNudge: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("weekly_nudges")
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("week", .string, .required)
            .unique(on: "user_id", "week")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("weekly_nudges").delete()
    }
}
