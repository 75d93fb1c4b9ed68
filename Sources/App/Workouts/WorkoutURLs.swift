import FieldhouseKit
import Foundation

extension SiteURL {
    static let workouts = SiteURL("workouts")
    static let newWorkout = SiteURL("workouts", "new")
    static func workout(_ id: UUID) -> SiteURL { SiteURL("workouts", Self.id(id)) }
    /// The workout as a file to download: "gpx" or "csv".
    static func workoutFile(_ id: UUID, format: String) -> SiteURL { SiteURL("workouts", Self.id(id) + "." + format) }
    static func editWorkout(_ id: UUID) -> SiteURL { SiteURL("workouts", Self.id(id), "edit") }
    static let importWorkouts = SiteURL("workouts", "import")
    static let goals = SiteURL("goals")
    static let reminders = SiteURL("reminders")
    static let heartRate = SiteURL("heart-rate")
    static let privacyZoneSettings = SiteURL("settings", "privacy-zones")
    static let resetWorkoutsSettings = SiteURL("settings", "reset-workouts")
}

extension SiteURL {
    static let routes = SiteURL("routes")
    /// Routes starting within `radiusKm` of a point that the viewer may see.
    static func routes(near centre: Coordinate, radiusKm: Int) -> String {
        routes.with([("near", FormNumber.text(centre.latitude) + "," + FormNumber.text(centre.longitude)), ("radius_km", String(radiusKm))])
    }
    static func route(_ id: UUID) -> SiteURL { SiteURL("routes", Self.id(id)) }
    static func routeGPX(_ id: UUID) -> SiteURL { SiteURL("routes", Self.id(id) + ".gpx") }
    static func deleteRoute(_ id: UUID) -> SiteURL { SiteURL("routes", Self.id(id), "delete") }
    /// Keeps a workout's path as a route (POST).
    static func saveWorkoutAsRoute(_ workout: UUID) -> SiteURL { SiteURL("workouts", Self.id(workout), "route") }
}
