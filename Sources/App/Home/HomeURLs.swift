import Foundation

/// Every path Home serves, spelled once (see `RoutePattern`): its routes are registered with these
/// cases. Home also serves `SitePath.home`, the front page, which every feature links to.
enum HomePath: String, RoutePattern {
    /// The health check a load balancer asks.
    case healthz = "/healthz"
    /// Prometheus metrics.
    case metrics = "/metrics"
}
