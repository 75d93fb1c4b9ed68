import FieldhouseKit
import Fluent
import Vapor

/// A viewer's access to a workout. Everyone who may not see it gets a 404, so ids reveal nothing.
struct WorkoutAccess {
    let workout: Workout
    let isOwner: Bool

    /// The workout with this id, if the request's viewer may see it; 404 otherwise.
    static func load(_ req: Request, id raw: String) async throws -> WorkoutAccess {
        guard let id = UUID(uuidString: raw), let workout = try await Workout.find(id, on: req.db),
            try await canView(workout, viewer: req.currentUser, on: req.db)
        else {
            throw Abort(.notFound)
        }
        return WorkoutAccess(workout: workout, isOwner: req.currentUser?.id == workout.$user.id)
    }

    static func canView(_ workout: Workout, viewer: User?, on db: any Database) async throws -> Bool {
        guard let viewer, let viewerID = viewer.id else { return workout.visibility == .public }
        if workout.$user.id == viewerID || workout.visibility == .public { return true }
        // A coach the athlete accepted sees every workout, private ones too, while the grant lasts.
        if try await seesAll(of: workout.$user.id, viewer: viewerID, on: db) { return true }
        guard workout.visibility == .followers else { return false }
        return try await Follow.query(on: db).filter(\.$follower.$id == viewerID).filter(\.$followee.$id == workout.$user.id)
            .filter(\.$status == .accepted).first() != nil
    }

    /// The circles whose points this viewer must not see on the workout's map and exports: none for
    /// the owner, the owner's privacy zones for everyone else.
    static func hiddenZones(_ workout: Workout, viewer: User?, on db: any Database) async throws -> [PrivacyZone] {
        viewer?.id == workout.$user.id ? [] : try await SavedPrivacyZone.zones(of: workout.$user.id, on: db)
    }
}
