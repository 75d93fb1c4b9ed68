import Fluent
import Vapor

/// `/admin/jobs`: what the background job runner has running, due and failed, with a retry for
/// failed jobs (the same as `fieldhouse jobs`).
struct AdminJobsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("admin", "jobs", use: page)
        routes.post("admin", "jobs", ":id", "retry", use: retry)
    }

    struct Page: Encodable {
        let layout: Layout
        let board: JobBoard
    }

    func page(req: Request) async throws -> View {
        _ = try AdminAccess.load(req)
        let board = try await JobBoard.load(now: req.now, on: req.db)
        return try await req.view.render("admin/jobs", Page(layout: req.layout(title: "Background jobs"), board: board))
    }

    func retry(req: Request) async throws -> Response {
        _ = try AdminAccess.load(req)
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await req.application.jobs.retry(id, now: req.now, on: req.db)
        else {
            throw Abort(.notFound, reason: "There is no failed job with that id; it may have been retried already.")
        }
        req.flash(.success, "The job is queued again and runs within seconds.")
        return req.redirect(to: .adminJobs)
    }
}
