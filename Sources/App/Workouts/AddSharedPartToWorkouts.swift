import Fluent
import Foundation
import SQLKit

/// What others may know of a workout whose track passes through the owner's privacy zones: when
/// its visible part begins (the start itself when nothing is hidden), and its time and distance
/// (`VisibleTimeline`; nil when nothing is hidden). Lists (the feed, leaderboards, badges) read
/// these instead of the whole workout's numbers, and the feed pages by the start others see.
struct AddSharedPartToWorkouts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column a statement: SQLite adds one at a time.
        try await database.schema(Workout.schema).field("shared_start_ms", .int64).update()
        try await database.schema(Workout.schema).field("shared_duration_s", .double).update()
        try await database.schema(Workout.schema).field("shared_distance_m", .double).update()
        // Nothing hidden yet: the part others see starts where the workout does.
        let sql = database.sql
        try await sql.raw("UPDATE workouts SET shared_start_ms = start_ms").run()
        // The feed and leaderboard order, page and add up by these: the covering index carries them.
        try await sql.raw("DROP INDEX workouts_feed_idx").run()
        try await sql.raw(
            """
            CREATE INDEX workouts_feed_idx ON workouts (user_id, shared_start_ms, visibility, id, start_ms, duration_s, distance_m, shared_duration_s, shared_distance_m)
            WHERE end_ms IS NOT NULL
            """
        ).run()
        // Existing tracks of people with zones are worked out by the job, not here: a long history
        // would hold up the start.
        struct Row: Decodable { let user_id: UUID }
        for row in try await sql.raw("SELECT DISTINCT user_id FROM privacy_zones").all(decoding: Row.self) {
            try await Job.enqueue(
                SharedPartJob.kind.name, payload: SharedPartJob.Person(user: row.user_id), at: .distantPast,
                key: "\(SharedPartJob.kind.name):\(SiteURL.id(row.user_id))@migration", on: database)
        }
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("DROP INDEX workouts_feed_idx").run()
        try await sql.raw(
            "CREATE INDEX workouts_feed_idx ON workouts (user_id, start_ms, visibility, id, duration_s, distance_m) WHERE end_ms IS NOT NULL"
        ).run()
        for column in ["shared_start_ms", "shared_duration_s", "shared_distance_m"] {
            try await database.schema(Workout.schema).deleteField(.string(column)).update()
        }
    }
}
