import Fluent

struct CreatePlacePhoto: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlacePhoto.schema)
            .id()
            .field("place_id", .uuid, .required, .references(Place.schema, "id", onDelete: .cascade))
            .field("photo_id", .uuid, .required, .references(Photo.schema, "id", onDelete: .cascade))
            .field("added_at", .datetime, .required)
            .unique(on: "photo_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlacePhoto.schema).delete()
    }
}
