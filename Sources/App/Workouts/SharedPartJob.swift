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
    }

    static let kind = JobKind("workouts.shared-part", transactional: false) { run in
        try await refresh(try run.payload(as: Person.self).user, on: run.db)
    }

    /// Queued for the next second: several changes in a row make one run.
    static func enqueue(for userID: UUID, now: Date, on db: any Database) async throws {
        let slot = (now.timeIntervalSince1970).rounded(.down) + 1
        try await Job.enqueue(
            kind.name, payload: Person(user: userID), at: Date(timeIntervalSince1970: slot),
            key: "\(kind.name):\(SiteURL.id(userID))@\(Int(slot))", on: db)
    }

    static func refresh(_ userID: UUID, on db: any Database) async throws {
        guard let user = try await User.find(userID, on: db) else { return }
        let zones = try await SavedPrivacyZone.zones(of: userID, on: db)
        let sql = db as! any SQLDatabase
        // Only a workout with a track can have a hidden part; the others keep nil.
        let workouts = try await Workout.query(on: db).filter(\.$user.$id == userID).filter(\.$endMS != nil).filter(\.$streams ~~ "latlng").all()
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
