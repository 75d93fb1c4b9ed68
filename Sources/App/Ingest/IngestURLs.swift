import Foundation

/// Every path Ingest serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them. The OpenAPI document writes the API's paths in its own
/// form (`{id}`); `OpenAPITests` holds it to the routes.
enum IngestPath: String, RoutePattern {
    case deviceSettings = "/settings/devices"
    case revokeDevice = "/settings/devices/:id/revoke"
    case developers = "/developers"
    case openAPIDocument = "/api/v1/openapi.json"
    case apiSamples = "/api/v1/samples"
    case apiHeartRateBLE = "/api/v1/heart-rate/ble"
    case apiUploads = "/api/v1/uploads"
    case apiWorkouts = "/api/v1/workouts"
    case apiWorkout = "/api/v1/workouts/:id"
    case apiFinishWorkout = "/api/v1/workouts/:id/finish"
    case apiWorkoutStreams = "/api/v1/workouts/:id/streams"
}

extension SiteURL {
    static let deviceSettings = SiteURL(IngestPath.deviceSettings)
    static let apiSamples = SiteURL(IngestPath.apiSamples)
    static let openAPIDocument = SiteURL(IngestPath.openAPIDocument)
    static let developers = SiteURL(IngestPath.developers)
}
