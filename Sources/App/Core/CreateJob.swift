import Fluent
import SQLKit

struct CreateJob: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Job.schema)
            .id()
            .field("kind", .string, .required)
            .field("payload", .string, .required)
            .field("key", .string)
            .field("run_at", .datetime, .required)
            .field("state", .string, .required)
            .field("attempts", .int, .required)
            .field("last_error", .string)
            .field("lease_owner", .string)
            .field("lease_until", .datetime)
            .field("finished_at", .datetime)
            .unique(on: "key")
            .create()
        // Every poll asks for the queued jobs that are due, oldest first.
        try await database.sql.create(index: "jobs_due_idx").on(Job.schema).column("state").column("run_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Job.schema).delete()
    }
}
