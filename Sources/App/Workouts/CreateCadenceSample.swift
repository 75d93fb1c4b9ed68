import Fluent

/// Steps or pedal strokes per minute, from files (FIT, TCX, GPX's TrackPointExtension).
struct CreateCadenceSample: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("cadence_samples")
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("t", .int64, .required)
            .field("rpm", .int, .required)
            .constraint(.constraint(.compositeIdentifier([.key("user_id"), .key("t")]), name: "cadence_samples_pkey"))
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("cadence_samples").delete()
    }
}
