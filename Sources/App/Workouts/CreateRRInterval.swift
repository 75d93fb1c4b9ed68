import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateRRInterval: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("rr_intervals")
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("t", .int64, .required)
            .field("ms", .double, .required)
            .constraint(.constraint(.compositeIdentifier([.key("user_id"), .key("t")]), name: "rr_intervals_pkey"))
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("rr_intervals").delete()
    }
}
