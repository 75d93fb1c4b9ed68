import Fluent
import Vapor

/// `/metrics`: the app's counters in the Prometheus text format (see `AppMetrics`), for a scraper
/// on this machine connecting directly (from loopback, with no proxy's `X-Forwarded-For`), or
/// anywhere with `FIELDHOUSE_METRICS_TOKEN` as a bearer token. Everyone else gets 404, as if
/// there were nothing here: behind a proxy every visitor arrives from loopback.
struct MetricsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(HomePath.metrics, use: metrics)
    }

    func metrics(req: Request) async throws -> Response {
        guard Self.mayRead(req) else { throw Abort(.notFound) }
        let now = req.now
        // The queue lives in the database that every process shares, so it is read at each scrape.
        let queued = Job.query(on: req.db).filter(\.$state == .queued)
        let waiting = try await queued.copy().count()
        let running = try await queued.copy().filter(\.$leaseUntil >= now).count()
        let due = try await queued.copy().filter(\.$runAt <= now).count() - running
        let failed = try await Job.query(on: req.db).filter(\.$state == .failed).count()
        req.application.metrics.jobs(queued: waiting, due: max(due, 0), running: running, failed: failed)
        return Response(
            status: .ok,
            headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"],
            body: .init(string: req.application.metrics.registry.emitToString()))
    }

    static func mayRead(_ req: Request) -> Bool {
        if let expected = req.application.config.metricsToken, let token = req.headers.bearerAuthorization?.token {
            return RandomToken.constantTimeEquals(token, expected)
        }
        // A proxy on this machine connects from loopback too. It is known by being a trusted
        // proxy, or by any header a proxy adds; not every proxy adds X-Forwarded-For.
        let peer = req.remoteAddress?.ipAddress ?? ""
        let loopback = ["127.0.0.1", "::1", "::ffff:127.0.0.1"].contains(peer) && !req.application.config.trustedProxies.contains(peer)
        let proxied = [HTTPHeaders.Name.xForwardedFor, .forwarded, .via, "X-Real-IP", "X-Forwarded-Host", "X-Forwarded-Proto"]
            .contains { !req.headers[$0].isEmpty }
        return loopback && !proxied
    }
}
