import Fluent
import Foundation

/// A feature that gives people besides the owner a part in someone's workouts: Coaching lets an
/// athlete's coaches see every workout and all their heart rate, and talk under each workout.
/// Workouts asks every feature that adopts this, so it never names the features built on it.
protocol WorkoutCompanion {
    /// Whether `viewerID` sees all of `ownerID`'s workouts and heart rate, private ones too.
    static func seesAllWorkouts(of ownerID: UUID, viewer viewerID: UUID, on db: any Database) async throws -> Bool

    /// The conversation under `workout` as `viewer` sees it, or nil when they take no part in one.
    static func conversation(under workout: Workout, owner: User, viewer: User, on db: any Database) async throws -> WorkoutConversation?

    /// Links and buttons the feature puts in the workout's header for a signed-in viewer who may
    /// see it ("3 kudos", "Give kudos", "2 comments").
    static func responses(to workout: Workout, viewer: User, on db: any Database) async throws -> [WorkoutResponse]
}

extension WorkoutCompanion {
    static func seesAllWorkouts(of ownerID: UUID, viewer viewerID: UUID, on db: any Database) async throws -> Bool { false }
    static func conversation(under workout: Workout, owner: User, viewer: User, on db: any Database) async throws -> WorkoutConversation? { nil }
    static func responses(to workout: Workout, viewer: User, on db: any Database) async throws -> [WorkoutResponse] { [] }
}

/// A link in a workout's header, or a button when `post` (a form to `url`).
struct WorkoutResponse: Encodable, Sendable {
    let text: String
    let url: String
    var post = false
}

/// Comments under a workout, for the people who take part.
struct WorkoutConversation: Encodable {
    /// One comment as the page shows it.
    struct Comment: Encodable {
        let id: String
        let author: String
        let authorUsername: String
        let when: String
        let edited: Bool
        let html: String
        let mine: Bool
    }

    let comments: [Comment]
    /// The athlete's username when the viewer coaches them, for links to the coaching pages.
    let coachOf: String?
    /// The companion's pages that lead to this workout for this viewer, first the one to go back
    /// to when the browser does not say (a coach's athlete page).
    var leadsHere: [BackLink] = []
}

extension Features {
    static var workoutCompanions: [any WorkoutCompanion.Type] {
        all.compactMap { $0 as? any WorkoutCompanion.Type }
    }
}

extension WorkoutAccess {
    /// Whether someone other than the owner sees all of the owner's workouts (a coach they accepted).
    static func seesAll(of ownerID: UUID, viewer viewerID: UUID, on db: any Database) async throws -> Bool {
        for companion in Features.workoutCompanions where try await companion.seesAllWorkouts(of: ownerID, viewer: viewerID, on: db) {
            return true
        }
        return false
    }

    /// What every companion feature puts in the workout's header for this viewer.
    static func responses(to workout: Workout, viewer: User?, on db: any Database) async throws -> [WorkoutResponse] {
        guard let viewer else { return [] }
        var all: [WorkoutResponse] = []
        for companion in Features.workoutCompanions { all += try await companion.responses(to: workout, viewer: viewer, on: db) }
        return all
    }

    /// The conversation under a workout for this viewer, if a companion feature has one.
    static func conversation(under workout: Workout, owner: User, viewer: User?, on db: any Database) async throws -> WorkoutConversation? {
        guard let viewer else { return nil }
        for companion in Features.workoutCompanions {
            if let conversation = try await companion.conversation(under: workout, owner: owner, viewer: viewer, on: db) { return conversation }
        }
        return nil
    }
}
