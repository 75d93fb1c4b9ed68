import FieldhouseKit
import Fluent
import Foundation
import Vapor

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

    /// The comments this feature keeps under `workout` that `viewer` (who may see it) may read:
    /// the page shows every feature's in one thread, oldest first.
    static func comments(under workout: Workout, owner: User, viewer: User, today: CalendarDate, on db: any Database) async throws -> [WorkoutConversation
        .Comment]

    /// Keeps a new comment if it is this feature's kind (`onlyCoaches`: for the athlete and their
    /// coaches alone, else for everyone who sees the workout); nil when it is not.
    static func addComment(_ comment: NewWorkoutComment, on db: any Database) async throws -> WorkoutCommentOutcome?
}

extension WorkoutCompanion {
    static func seesAllWorkouts(of ownerID: UUID, viewer viewerID: UUID, on db: any Database) async throws -> Bool { false }
    static func conversation(under workout: Workout, owner: User, viewer: User, on db: any Database) async throws -> WorkoutConversation? { nil }
    static func responses(to workout: Workout, viewer: User, on db: any Database) async throws -> [WorkoutResponse] { [] }
    static func comments(under workout: Workout, owner: User, viewer: User, today: CalendarDate, on db: any Database) async throws -> [WorkoutConversation
        .Comment]
    { [] }
    static func addComment(_ comment: NewWorkoutComment, on db: any Database) async throws -> WorkoutCommentOutcome? { nil }
}

/// A comment someone writes under a workout they may see, before a feature keeps it.
struct NewWorkoutComment: Sendable {
    let workout: Workout
    let author: User
    let body: String
    let onlyCoaches: Bool
    let now: Date
    let today: CalendarDate
}

/// What became of a new comment: kept (the page scrolls to `anchor`) or refused with a reason.
enum WorkoutCommentOutcome: Sendable {
    case added(anchor: String)
    case refused(HTTPStatus, String)
}

/// A link in a workout's header, or a button when `post` (a form to `url`).
struct WorkoutResponse: Encodable, Sendable {
    let text: String
    let url: String
    var post = false
}

/// Comments under a workout, for the people who take part.
struct WorkoutConversation: Encodable {
    /// One comment as the page shows it, from whichever feature keeps it.
    struct Comment: Encodable {
        /// The element's id on the page ("comment-<id>"), which links and redirects point at.
        let anchor: String
        let author: String
        /// nil when the viewer may not know who wrote it ("Someone").
        let authorURL: String?
        let when: String
        /// For machines (`<time datetime>`), and the thread's order.
        let datetime: String
        let edited: Bool
        let html: String
        /// Seen by the athlete and their coaches only.
        let onlyCoaches: Bool
        let editURL: String?
        let deleteAction: String?
    }

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

    /// Every companion's comments under a workout that this viewer may read, as one thread.
    static func thread(under workout: Workout, owner: User, viewer: User?, today: CalendarDate, on db: any Database) async throws -> [WorkoutConversation
        .Comment]
    {
        guard let viewer else { return [] }
        var all: [WorkoutConversation.Comment] = []
        for companion in Features.workoutCompanions { all += try await companion.comments(under: workout, owner: owner, viewer: viewer, today: today, on: db) }
        return all.sorted { ($0.datetime, $0.anchor) < ($1.datetime, $1.anchor) }
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
