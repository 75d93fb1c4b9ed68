import Foundation

extension SiteURL {
    static let workouts = SiteURL("workouts")
    static let newWorkout = SiteURL("workouts", "new")
    static func workout(_ id: UUID) -> SiteURL { SiteURL("workouts", Self.id(id)) }
    /// The workout as a file to download: "gpx" or "csv".
    static func workoutFile(_ id: UUID, format: String) -> SiteURL { SiteURL("workouts", Self.id(id) + "." + format) }
    static func editWorkout(_ id: UUID) -> SiteURL { SiteURL("workouts", Self.id(id), "edit") }
    static let goals = SiteURL("goals")
    static let reminders = SiteURL("reminders")
    static let heartRate = SiteURL("heart-rate")
    static let privacyZoneSettings = SiteURL("settings", "privacy-zones")
    static let resetWorkoutsSettings = SiteURL("settings", "reset-workouts")
}
