import Fluent

struct CreatePhoto: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Photo.schema)
            .id()
            .field("owner_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("format", .string, .required)
            .field("original_file", .string, .required)
            .field("served_file", .string, .required)
            .field("byte_count", .int, .required)
            .field("width", .int)
            .field("height", .int)
            .field("orientation", .int, .required)
            .field("exif_latitude", .double)
            .field("exif_longitude", .double)
            .field("taken_at", .datetime)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Photo.schema).delete()
    }
}
