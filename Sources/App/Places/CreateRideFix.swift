import Fluent
import SQLKit

/// The positions a phone sent in the last hour, with when each arrived, for people who turned
/// rewards on: what a check-in's ride is judged by (`RideCheck`). Kept an hour, then deleted.
struct CreateRideFix: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(RideFixes.schema)
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("t", .int64, .required)
            .field("lat", .double, .required)
            .field("lon", .double, .required)
            .field("received_ms", .int64, .required)
            .unique(on: "user_id", "t")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RideFixes.schema).delete()
    }
}
