import Fluent

struct CreateNearbyShare: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(NearbyShare.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("enabled", .bool, .required)
            .field("cell_lat", .double)
            .field("cell_lon", .double)
            .field("until", .datetime)
            .field("moves", .int, .required)
            .field("moves_since", .datetime)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(NearbyShare.schema).delete()
    }
}
