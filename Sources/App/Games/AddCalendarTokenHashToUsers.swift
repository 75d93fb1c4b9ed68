import Fluent
import SQLKit

/// Calendar feed tokens stop being stored: only their hash is kept, and the token is derived from
/// the server key when its owner opens a page (see `CalendarFeed.url`). Tokens stored
/// before cannot be kept (their plain text is what goes), so each person's feed gets a new address
/// the next time they open a page that shows it.
struct AddCalendarTokenHashToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        // One column per statement: SQLite's ALTER TABLE takes one change at a time.
        try await database.schema(User.schema).field("calendar_token_hash", .string).update()
        try await database.schema(User.schema).field("calendar_generation", .int, .required, .sql(.default(0))).update()
        try await sql.create(index: "users_calendar_token_hash_idx").on(User.schema).column("calendar_token_hash").unique().run()
        try await sql.drop(index: "users_calendar_token_idx").run()
        try await database.schema(User.schema).deleteField("calendar_token").update()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await database.schema(User.schema).field("calendar_token", .string).update()
        try await sql.create(index: "users_calendar_token_idx").on(User.schema).column("calendar_token").unique().run()
        try await sql.drop(index: "users_calendar_token_hash_idx").run()
        try await database.schema(User.schema).deleteField("calendar_token_hash").update()
        try await database.schema(User.schema).deleteField("calendar_generation").update()
    }
}
