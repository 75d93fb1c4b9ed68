import Fluent

/// Where a photo's re-encoded copy and its two sizes stand (see `Photo.Sizes`). Photos stored
/// before this column are `pending`, so the next start re-encodes them too.
struct AddSizesToPhotos: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Photo.schema).field("sizes", .string, .required, .sql(.default("pending"))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Photo.schema).deleteField("sizes").update()
    }
}
