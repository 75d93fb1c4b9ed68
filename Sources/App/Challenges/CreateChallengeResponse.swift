import Fluent
import SQLKit

struct CreateChallengeResponse: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ChallengeResponse.schema)
            .id()
            .field("challenge_id", .uuid, .required, .references(Challenge.schema, .id, onDelete: .cascade))
            .field("challenger_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("photo_id", .uuid, .required, .references(Photo.schema, .id, onDelete: .cascade))
            .field("note", .string, .required)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("location_source", .string)
            .field("distance_m", .double)
            .field("taken_before", .bool, .required)
            .field("status", .string, .required)
            .field("stars", .int)
            .field("reason", .string)
            .field("judged_at", .datetime)
            .field("client_key", .string, .required)
            .field("created_at", .datetime)
            .unique(on: "user_id", "client_key")
            .create()
        let sql = database.sql
        // One open reply per person and challenge: a rejected reply may be followed by another.
        try await sql.raw(
            """
            CREATE UNIQUE INDEX challenge_responses_open_idx ON challenge_responses (challenge_id, user_id)
            WHERE status <> 'rejected'
            """
        ).run()
        try await sql.create(index: "challenge_responses_judge_idx").on(ChallengeResponse.schema)
            .column("challenger_id").column("status").run()
        try await sql.create(index: "challenge_responses_user_idx").on(ChallengeResponse.schema)
            .column("user_id").column("status").run()
        try await sql.create(index: "challenge_responses_challenge_idx").on(ChallengeResponse.schema)
            .column("challenge_id").column("created_at").run()
        try await sql.create(index: "challenge_responses_photo_idx").on(ChallengeResponse.schema).column("photo_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChallengeResponse.schema).delete()
    }
}
