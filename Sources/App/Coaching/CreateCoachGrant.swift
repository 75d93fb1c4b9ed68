import Fluent
import SQLKit
import Vapor

struct CreateCoachGrant: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CoachGrant.schema)
            .id()
            .field("coach_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("athlete_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("status", .string, .required)
            .field("requested_by", .string, .required)
            .field("team_id", .uuid)
            .field("created_at", .datetime)
            .field("accepted_at", .datetime)
            .unique(on: "coach_id", "athlete_id")
            .create()
        try await database.sql.create(index: "coach_grants_athlete").on(CoachGrant.schema).column("athlete_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CoachGrant.schema).delete()
    }
}
