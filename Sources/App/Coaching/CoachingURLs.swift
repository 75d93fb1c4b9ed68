import Foundation

extension SiteURL {
    static let coach = SiteURL("coach")
    static let coachWeek = SiteURL("coach", "week")
    static func athlete(username: String) -> SiteURL { SiteURL("coach", "athletes", username) }
    static func athleteZones(username: String) -> SiteURL { SiteURL("coach", "athletes", username, "zones") }
    static let zoneSettings = SiteURL("settings", "zones")
    static let coachSettings = SiteURL("settings", "coaches")
    static func editWorkoutComment(_ workout: UUID, _ comment: UUID) -> SiteURL { SiteURL("workouts", id(workout), "comments", id(comment), "edit") }
    static func deleteWorkoutComment(_ workout: UUID, _ comment: UUID) -> SiteURL { SiteURL("workouts", id(workout), "comments", id(comment), "delete") }
}
