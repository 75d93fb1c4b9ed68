import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// A viewer's access to a workout. Everyone who may not see it gets a 404, so ids reveal nothing.
struct WorkoutAccess {
    let workout: Workout
    let isOwner: Bool

    /// The workout with this id, if the request's viewer may see it; 404 otherwise.
    static func load(_ req: Request, id raw: String) async throws -> WorkoutAccess {
        guard let id = UUID(uuidString: raw), let workout = try await Workout.find(id, on: req.db),
            try await canView(workout, viewer: req.currentUser, today: req.clock.today, on: req.db)
        else {
            throw Abort(.notFound)
        }
        return WorkoutAccess(workout: workout, isOwner: req.currentUser?.id == workout.$user.id)
    }

    /// The rule of reading: the owner, a coach with a grant, then the workout's reach (at most
    /// followers for an owner under 16, whatever is stored).
    static func canView(_ workout: Workout, viewer: User?, today: CalendarDate, on db: any Database) async throws -> Bool {
        if let viewerID = viewer?.id, workout.$user.id == viewerID { return true }
        let reach = try await reach(of: workout, today: today, on: db)
        guard let viewer, let viewerID = viewer.id else { return reach == .public }
        if reach == .public { return true }
        // A coach the athlete accepted sees every workout, private ones too, while the grant lasts.
        if try await seesAll(of: workout.$user.id, viewer: viewerID, on: db) { return true }
        guard reach == .followers else { return false }
        return try await Follow.query(on: db).filter(\.$follower.$id == viewerID).filter(\.$followee.$id == workout.$user.id)
            .filter(\.$status == .accepted).first() != nil
    }

    /// Downloading a track (GPX, CSV) is for its owner and the coaches they accepted: a follower
    /// may look at the map but not take the file, whose points a page never shows whole.
    static func canDownload(_ workout: Workout, viewer: User?, on db: any Database) async throws -> Bool {
        guard let viewerID = viewer?.id else { return false }
        if workout.$user.id == viewerID { return true }
        return try await seesAll(of: workout.$user.id, viewer: viewerID, on: db)
    }

    /// The workout's reach; the owner is read only when it matters (a workout stored as public).
    static func reach(of workout: Workout, today: CalendarDate, on db: any Database) async throws -> Workout.Visibility {
        guard workout.visibility == .public else { return workout.visibility }
        let owner = try await User.find(workout.$user.id, on: db)
        return workout.reach(ownerUnder16: owner?.isUnder16(on: today) ?? true)
    }

    /// `canView`'s "everyone" in SQL, for lists and totals: a public workout of an owner who is 16
    /// or older today (`alias` names the workouts table).
    static func everyoneSQL(_ alias: String, today: CalendarDate) -> SQLQueryString {
        """
        (\(ident: alias).visibility = 'public' AND \(ident: alias).user_id IN (
          SELECT id FROM users WHERE birth_date IS NOT NULL AND birth_date <= \(bind: User.sixteenCutoff(on: today))))
        """
    }

    /// The circles whose points this viewer must not see on the workout's map and exports: none for
    /// the owner, the owner's privacy zones for everyone else.
    static func hiddenZones(_ workout: Workout, viewer: User?, on db: any Database) async throws -> [PrivacyZone] {
        viewer?.id == workout.$user.id ? [] : try await SavedPrivacyZone.zones(of: workout.$user.id, on: db)
    }
}
