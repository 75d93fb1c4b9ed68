import FieldhouseKit
import Foundation

/// Every path Workouts serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum WorkoutPath: String, RoutePattern {
    case workouts = "/workouts"
    case newWorkout = "/workouts/new"
    case importWorkouts = "/workouts/import"
    case workout = "/workouts/:id"
    case editWorkout = "/workouts/:id/edit"
    case deleteWorkout = "/workouts/:id/delete"
    case workoutComments = "/workouts/:id/comments"
    case saveWorkoutAsRoute = "/workouts/:id/route"
    case routes = "/routes"
    case route = "/routes/:id"
    case deleteRoute = "/routes/:id/delete"
    case goals = "/goals"
    case toggleGoal = "/goals/:id/toggle"
    case deleteGoal = "/goals/:id/delete"
    case reminders = "/reminders"
    case editReminder = "/reminders/:id/edit"
    case toggleReminder = "/reminders/:id/toggle"
    case deleteReminder = "/reminders/:id/delete"
    case heartRate = "/heart-rate"
    case stats = "/stats"
    case privacyZoneSettings = "/settings/privacy-zones"
    case deletePrivacyZone = "/settings/privacy-zones/:id/delete"
    case resetWorkoutsSettings = "/settings/reset-workouts"
}

extension SiteURL {
    static let workouts = SiteURL(WorkoutPath.workouts)
    static let newWorkout = SiteURL(WorkoutPath.newWorkout)
    static func workout(_ id: UUID) -> SiteURL { SiteURL(WorkoutPath.workout, Self.id(id)) }
    /// The workout as a file to download: "gpx" or "csv".
    static func workoutFile(_ id: UUID, format: String) -> SiteURL { SiteURL(WorkoutPath.workout, Self.id(id) + "." + format) }
    static func editWorkout(_ id: UUID) -> SiteURL { SiteURL(WorkoutPath.editWorkout, Self.id(id)) }
    static let importWorkouts = SiteURL(WorkoutPath.importWorkouts)
    static let goals = SiteURL(WorkoutPath.goals)
    static let reminders = SiteURL(WorkoutPath.reminders)
    static let heartRate = SiteURL(WorkoutPath.heartRate)
    static let privacyZoneSettings = SiteURL(WorkoutPath.privacyZoneSettings)
    static let resetWorkoutsSettings = SiteURL(WorkoutPath.resetWorkoutsSettings)
}

extension SiteURL {
    static let routes = SiteURL(WorkoutPath.routes)
    /// Routes starting within `radiusKm` of a point that the viewer may see.
    static func routes(near centre: Coordinate, radiusKm: Int) -> String {
        routes.with([("near", FormNumber.text(centre.latitude) + "," + FormNumber.text(centre.longitude)), ("radius_km", String(radiusKm))])
    }
    static func route(_ id: UUID) -> SiteURL { SiteURL(WorkoutPath.route, Self.id(id)) }
    static func routeGPX(_ id: UUID) -> SiteURL { SiteURL(WorkoutPath.route, Self.id(id) + ".gpx") }
    static func deleteRoute(_ id: UUID) -> SiteURL { SiteURL(WorkoutPath.deleteRoute, Self.id(id)) }
    /// Keeps a workout's path as a route (POST).
    static func saveWorkoutAsRoute(_ workout: UUID) -> SiteURL { SiteURL(WorkoutPath.saveWorkoutAsRoute, Self.id(workout)) }
}
