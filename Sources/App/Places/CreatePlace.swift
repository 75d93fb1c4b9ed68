import Fluent
import SQLKit

struct CreatePlace: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Place.schema)
            .id()
            .field("name", .string, .required)
            .field("kind", .string, .required)
            .field("latitude", .double, .required)
            .field("longitude", .double, .required)
            .field("radius_m", .double, .required)
            .field("description", .string, .required)
            .field("opening_hours", .string, .required)
            .field("sports", .string, .required)
            .field("time_zone", .string, .required)
            .field("reward_text", .string, .required)
            .field("reward_daily_cap", .int, .required)
            .field("reward_from", .string)
            .field("reward_until", .string)
            .field("created_by", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("created_at", .datetime)
            .create()
        // "Near a point" is a latitude band first, then longitude: the index answers the box.
        try await database.sql.create(index: "places_position_idx").on(Place.schema).column("latitude").column("longitude").run()
        // Without a point to measure from, the list is by name.
        try await database.sql.create(index: "places_name_idx").on(Place.schema).column("name").column("id").run()
        try await database.schema(PlaceManager.schema)
            .id()
            .field("place_id", .uuid, .required, .references(Place.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .unique(on: "place_id", "user_id")
            .create()
        try await database.sql.create(index: "place_managers_user_idx").on(PlaceManager.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlaceManager.schema).delete()
        try await database.schema(Place.schema).delete()
    }
}
