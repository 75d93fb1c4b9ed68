import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Works out again what others may know of a person's workouts (`Workout.share`) after their
/// privacy zones changed: a zone added hides part of old tracks from the feed and leaderboards at
/// once, a zone removed shows it again. One workout at a time, each written on its own (the job
/// holds no transaction over a long history), and safe to run twice.
enum SharedPartJob {
    struct Person: Codable, Sendable {
        let user: UUID
        /// Only the workouts overlapping this stretch (ms), when positions arrived late into it.
        var from: Int64? = nil
        var to: Int64? = nil
    }

    static let kind = JobKind("workouts.shared-part", transactional: false) { run in
        let person = try run.payload(as: Person.self)
        try await refresh(person.user, from: person.from, to: person.to, on: run.db)
    }

    /// Positions stored into the window of a finished workout after it was summarised (a phone
    /// that synced late): its part others see is worked out again, for a person with zones.
    static func positionsArrived(for userID: UUID, from: Int64, to: Int64, on sql: any SQLDatabase) async throws {
        struct Row: Decodable { let n: Int }
        let affected =
            try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM workouts w WHERE w.user_id = \(bind: userID) AND w.end_ms IS NOT NULL
                  AND w.start_ms <= \(bind: to) AND w.end_ms >= \(bind: from)
                  AND EXISTS (SELECT 1 FROM privacy_zones z WHERE z.user_id = \(bind: userID))
                """
            ).first(decoding: Row.self)?.n ?? 0
        guard affected > 0 else { return }
        try await Job.enqueue(
            kind.name, payload: Person(user: userID, from: from, to: to), at: .distantPast,
            key: "\(kind.name):\(SiteURL.id(userID))@\(from)-\(to)", on: sql)
    }

    /// Queued for the next second: several changes in a row make one run.
    static func enqueue(for userID: UUID, now: Date, on db: any Database) async throws {
        let slot = (now.timeIntervalSince1970).rounded(.down) + 1
        try await Job.enqueue(
            kind.name, payload: Person(user: userID), at: Date(timeIntervalSince1970: slot),
            key: "\(kind.name):\(SiteURL.id(userID))@\(Int(slot))", on: db)
    }

    static func refresh(_ userID: UUID, from: Int64? = nil, to: Int64? = nil, on db: any Database) async throws {
        guard let user = try await User.find(userID, on: db) else { return }
        let zones = try await SavedPrivacyZone.zones(of: userID, on: db)
        let sql = db.sql
        // Every finished workout (a time line, not the stored stream list, says whether it has a track).
        var query = Workout.query(on: db).filter(\.$user.$id == userID).filter(\.$endMS != nil)
        if let from, let to { query = query.filter(\.$startMS <= to).filter(\.$endMS >= from) }
        let workouts = try await query.all()
        for workout in workouts {
            guard let end = workout.endMS else { continue }
            let part =
                zones.isEmpty
                ? nil
                : workout.visiblePart(of: try await WorkoutTimeline.load(user: userID, from: workout.startMS, to: end, on: db), zones: zones, for: user)
            workout.share(part)
            try await sql.raw(
                """
                UPDATE workouts SET shared_start_ms = \(bind: workout.sharedStartMS), shared_duration_s = \(bind: workout.sharedDuration),
                  shared_distance_m = \(bind: workout.sharedDistance)
                WHERE id = \(bind: workout.requireID())
                """
            ).run()
        }
    }
}
