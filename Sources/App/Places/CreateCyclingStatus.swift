import Fluent
import SQLKit

struct CreateCyclingStatus: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CyclingStatus.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("status", .string, .required)
            .field("updated_at", .datetime)
            .unique(on: "user_id")
            .create()
        try await database.schema(CyclingTransition.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("at_ms", .int64, .required)
            .field("from_state", .string, .required)
            .field("to_state", .string, .required)
            .field("cause", .string, .required)
            .create()
        try await database.sql.create(index: "cycling_transitions_user_idx").on(CyclingTransition.schema).column("user_id")
            .column("at_ms").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CyclingTransition.schema).delete()
        try await database.schema(CyclingStatus.schema).delete()
    }
}
