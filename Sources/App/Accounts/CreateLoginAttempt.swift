import Fluent
import SQLKit

struct CreateLoginAttempt: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LoginAttempt.schema)
            .id()
            .field("key", .string, .required)
            .field("attempted_at", .datetime, .required)
            .create()
        try await database.sql.create(index: "login_attempts_key_idx")
            .on(LoginAttempt.schema).column("key").column("attempted_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LoginAttempt.schema).delete()
    }
}
