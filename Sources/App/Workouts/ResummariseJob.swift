import Fluent
import Foundation

/// Works a person's finished workouts out again from their samples when the summary's rules
/// changed (`Workout.summaryRules`): the distance, speeds, time and what others see. One workout
/// at a time, each saved on its own (no transaction over a long history), and safe to run twice:
/// a workout already worked out by today's rules is left alone.
enum ResummariseJob {
    struct Person: Codable, Sendable {
        let user: UUID
    }

    static let kind = JobKind("workouts.resummarise", transactional: false) { run in
        try await refresh(try run.payload(as: Person.self).user, on: run.db)
    }

    static func enqueue(for userID: UUID, on db: any Database) async throws {
        try await Job.enqueue(
            kind.name, payload: Person(user: userID), at: .distantPast,
            key: "\(kind.name):\(SiteURL.id(userID))@\(Workout.summaryRules)", on: db)
    }

    static func refresh(_ userID: UUID, on db: any Database) async throws {
        guard let user = try await User.find(userID, on: db) else { return }
        let stale = try await Workout.query(on: db).filter(\.$user.$id == userID).filter(\.$endMS != nil).filter(\.$source != "manual")
            .group(.or) { $0.filter(\.$summaryVersion == nil).filter(\.$summaryVersion < Workout.summaryRules) }.all()
        for workout in stale {
            try await workout.summarise(for: user, on: db)
            try await workout.save(on: db)
        }
    }
}
