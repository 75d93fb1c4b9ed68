import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateStepSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("step_samples")
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("t", .int64, .required)
            .field("count", .int, .required)
            .constraint(.constraint(.compositeIdentifier([.key("user_id"), .key("t")]), name: "step_samples_pkey"))
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("step_samples").delete()
    }
}
