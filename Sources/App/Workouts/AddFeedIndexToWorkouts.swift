import Fluent
import SQLKit

/// The feed and the leaderboard read finished workouts of many people over a time window: this
/// partial index holds every column they filter, sort and add up, so neither touches the table
/// until the feed fetches the one page it shows. Queries repeat `end_ms IS NOT NULL` word for
/// word so that SQLite and PostgreSQL may use it.
struct AddFeedIndexToWorkouts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.sql.raw(
            "CREATE INDEX workouts_feed_idx ON workouts (user_id, start_ms, visibility, id, duration_s, distance_m) WHERE end_ms IS NOT NULL"
        ).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP INDEX workouts_feed_idx").run()
    }
}
