import Foundation

/// Every path Coaching serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum CoachPath: String, RoutePattern {
    case coach = "/coach"
    case coachWeek = "/coach/week"
    case invite = "/coach/invite"
    case teamRequest = "/coach/team-request"
    case acceptRequest = "/coach/requests/:id/accept"
    case declineRequest = "/coach/requests/:id/decline"
    case athlete = "/coach/athletes/:username"
    case stopCoaching = "/coach/athletes/:username/stop"
    case plans = "/coach/athletes/:username/plans"
    case deletePlan = "/coach/athletes/:username/plans/:id/delete"
    case athleteZones = "/coach/athletes/:username/zones"
    case zoneSettings = "/settings/zones"
    case coachSettings = "/settings/coaches"
    case acceptCoach = "/settings/coaches/:id/accept"
    case declineCoach = "/settings/coaches/:id/decline"
    case revokeCoach = "/settings/coaches/:id/revoke"
    case editWorkoutComment = "/workouts/:id/comments/:comment/edit"
    case deleteWorkoutComment = "/workouts/:id/comments/:comment/delete"
}

extension SiteURL {
    static let coach = SiteURL(CoachPath.coach)
    static let coachWeek = SiteURL(CoachPath.coachWeek)
    static func athlete(username: String) -> SiteURL { SiteURL(CoachPath.athlete, username) }
    static func athleteZones(username: String) -> SiteURL { SiteURL(CoachPath.athleteZones, username) }
    static let zoneSettings = SiteURL(CoachPath.zoneSettings)
    static let coachSettings = SiteURL(CoachPath.coachSettings)
    static func editWorkoutComment(_ workout: UUID, _ comment: UUID) -> SiteURL { SiteURL(CoachPath.editWorkoutComment, id(workout), id(comment)) }
    static func deleteWorkoutComment(_ workout: UUID, _ comment: UUID) -> SiteURL { SiteURL(CoachPath.deleteWorkoutComment, id(workout), id(comment)) }
}
