import Fluent
import SQLKit

struct CreateChallenge: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Challenge.schema)
            .id()
            .field("sender_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("photo_id", .uuid, .required, .references(Photo.schema, .id, onDelete: .cascade))
            .field("caption", .string, .required)
            .field("is_public", .bool, .required)
            .field("deadline", .datetime)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("location_source", .string)
            .field("recipient_count", .int, .required)
            .field("completed_count", .int, .required)
            .field("client_key", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "sender_id", "client_key")
            .create()
        let sql = database.sql
        try await sql.create(index: "challenges_sender_idx").on(Challenge.schema).column("sender_id").column("created_at").run()
        try await sql.create(index: "challenges_public_idx").on(Challenge.schema).column("is_public").column("created_at").run()
        try await sql.create(index: "challenges_photo_idx").on(Challenge.schema).column("photo_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Challenge.schema).delete()
    }
}
