import Fluent

/// One row per person and millisecond: the key is what makes a retried batch store nothing twice.
struct CreateLocationSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("location_samples")
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("t", .int64, .required)
            .field("lat", .double, .required)
            .field("lon", .double, .required)
            .field("ele", .double)
            .field("accuracy", .double)
            .field("speed", .double)
            .constraint(.constraint(.compositeIdentifier([.key("user_id"), .key("t")]), name: "location_samples_pkey"))
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("location_samples").delete()
    }
}
