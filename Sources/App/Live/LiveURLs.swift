import Foundation

/// Every path Live serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum LivePath: String, RoutePattern {
    case record = "/record"
    case recordDevice = "/record/device"
    case live = "/live/:id"
    case liveEvents = "/live/:id/events"
    /// The recorder's device API: share a running workout live.
    case apiShareLive = "/api/v1/workouts/:id/live"
}

extension SiteURL {
    static let record = SiteURL(LivePath.record)
    static let recordDevice = SiteURL(LivePath.recordDevice)
    static func live(_ workout: UUID) -> SiteURL { SiteURL(LivePath.live, id(workout)) }
    static func liveEvents(_ workout: UUID) -> SiteURL { SiteURL(LivePath.liveEvents, id(workout)) }
}
