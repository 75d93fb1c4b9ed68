import Fluent
import Foundation
import SQLKit

/// Which rules a workout's summary was worked out by (`Workout.summaryRules`). Summaries from
/// before GPS jumps were left out (walks with a top speed of 126 km/h, a run "2,072 km" long) are
/// worked out again from their samples by `ResummariseJob`, one person at a time, in the
/// background: a long history would hold up the start.
struct AddSummaryVersionToWorkouts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Workout.schema).field("summary_version", .int).update()
        struct Row: Decodable { let user_id: UUID }
        let sql = database.sql
        for row in try await sql.raw("SELECT DISTINCT user_id FROM workouts WHERE end_ms IS NOT NULL AND source <> 'manual'").all(decoding: Row.self) {
            try await ResummariseJob.enqueue(for: row.user_id, on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Workout.schema).deleteField("summary_version").update()
    }
}
