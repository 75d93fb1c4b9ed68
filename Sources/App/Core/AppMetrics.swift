import Foundation
import Prometheus
import Vapor

/// What the app counts, kept in this application's own Prometheus registry (not the process-wide
/// `MetricsSystem`, so apps sharing a process, as the tests do, count apart). `/metrics` shows it in
/// the Prometheus text format, every family with its `# HELP` line.
final class AppMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// Pages answer in milliseconds; a slow one is the thing worth seeing.
    static let durationBuckets: [Duration] = [
        .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
    ]

    /// Every family the app writes, with the text of its `# HELP` line (one text per name: the
    /// registry refuses a second one).
    enum Family: String, CaseIterable {
        case requests = "fieldhouse_http_requests_total"
        case requestDuration = "fieldhouse_http_request_duration_seconds"
        case stored = "fieldhouse_stored_total"
        case jobFailures = "fieldhouse_job_failures_total"
        case jobs = "fieldhouse_jobs"

        var help: String {
            switch self {
            case .requests: "HTTP requests answered, by route pattern (unmatched or static when none), method and status."
            case .requestDuration: "Time to answer an HTTP request, by route pattern and method."
            case .stored: "Rows or files stored for good, by what: samples, photos, workout_files."
            case .jobFailures: "Background job attempts that failed, by job kind."
            case .jobs: "Background jobs in the queue when /metrics was read, by state: queued, due, running, failed."
            }
        }

        var descriptor: MetricNameDescriptor { MetricNameDescriptor(metricName: rawValue, unitName: "", helpText: help) }
    }

    /// One answered request, by route pattern (never the path: paths hold ids and secrets).
    func request(route: String, method: HTTPMethod, status: HTTPResponseStatus, duration: Duration) {
        registry.makeCounter(
            descriptor: Family.requests.descriptor, labels: [("route", route), ("method", method.rawValue), ("status", String(status.code))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Family.requestDuration.descriptor, labels: [("route", route), ("method", method.rawValue)], buckets: Self.durationBuckets
        ).record(duration)
    }

    /// Rows or files that were stored for good: `what` is a small fixed word (samples, photos, workout_files).
    func stored(_ what: String, count: Int = 1) {
        guard count > 0 else { return }
        registry.makeCounter(descriptor: Family.stored.descriptor, labels: [("what", what)]).increment(by: Int64(count))
    }

    func jobFailed(kind: String) {
        registry.makeCounter(descriptor: Family.jobFailures.descriptor, labels: [("kind", kind)]).increment()
    }

    /// Jobs by state, read when `/metrics` is asked (the queue lives in the database, shared by every process).
    func jobs(queued: Int, due: Int, running: Int, failed: Int) {
        for (state, count) in [("queued", queued), ("due", due), ("running", running), ("failed", failed)] {
            registry.makeGauge(descriptor: Family.jobs.descriptor, labels: [("state", state)]).set(Int64(count))
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
