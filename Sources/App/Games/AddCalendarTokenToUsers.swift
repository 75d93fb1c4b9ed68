import Fluent
import SQLKit

/// The secret behind each person's calendar feed URL.
struct AddCalendarTokenToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("calendar_token", .string).update()
        try await database.sql.create(index: "users_calendar_token_idx")
            .on(User.schema).column("calendar_token").unique().run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("calendar_token").update()
    }
}
