import Foundation
import Metrics
import Prometheus
import Vapor

/// What the app counts, through swift-metrics, kept in this application's own Prometheus registry
/// (not the process-wide `MetricsSystem`, so apps sharing a process, as the tests do, count
/// apart). `/metrics` shows it in the Prometheus text format.
final class AppMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Pages answer in milliseconds; a slow one is the thing worth seeing.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    /// One answered request, by route pattern (never the path: paths hold ids and secrets).
    func request(route: String, method: HTTPMethod, status: HTTPResponseStatus, duration: Duration) {
        Counter(
            label: "fieldhouse_http_requests_total", dimensions: [("route", route), ("method", method.rawValue), ("status", String(status.code))],
            factory: factory
        ).increment()
        Metrics.Timer(label: "fieldhouse_http_request_duration_seconds", dimensions: [("route", route), ("method", method.rawValue)], factory: factory)
            .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Rows or files that were stored for good: `what` is a small fixed word (samples, photos, workout_files).
    func stored(_ what: String, count: Int = 1) {
        guard count > 0 else { return }
        Counter(label: "fieldhouse_stored_total", dimensions: [("what", what)], factory: factory).increment(by: count)
    }

    func jobFailed(kind: String) {
        Counter(label: "fieldhouse_job_failures_total", dimensions: [("kind", kind)], factory: factory).increment()
    }

    /// Jobs by state, read when `/metrics` is asked (the queue lives in the database, shared by every process).
    func jobs(queued: Int, due: Int, running: Int, failed: Int) {
        for (state, count) in [("queued", queued), ("due", due), ("running", running), ("failed", failed)] {
            Gauge(label: "fieldhouse_jobs", dimensions: [("state", state)], factory: factory).record(count)
        }
    }

    /// A request's route as a label: its pattern, or one of two words when no route matched, so
    /// made-up paths cannot grow the number of series.
    static func routeLabel(_ request: Request) -> String {
        if let route = request.route { return "/" + route.path.map(\.description).joined(separator: "/") }
        let path = request.url.path
        return path.hasPrefix("/css/") || path.hasPrefix("/js/") || path.hasPrefix("/img/") || path == "/favicon.svg" ? "static" : "unmatched"
    }
}

extension Application {
    private struct AppMetricsKey: StorageKey { typealias Value = AppMetrics }

    /// Set once by `configure`.
    var metrics: AppMetrics {
        get {
            guard let metrics = storage[AppMetricsKey.self] else { fatalError("configure(_:config:) has not run") }
            return metrics
        }
        set { storage[AppMetricsKey.self] = newValue }
    }
}
