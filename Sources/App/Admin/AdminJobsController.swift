import Fluent
import Vapor

/// `/admin/jobs`: what the background job runner has running, due and failed, with a retry for
/// failed jobs (the same as `fieldhouse jobs`).
struct AdminJobsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AdminPath.adminJobs, use: page)
        routes.post(AdminPath.retryJob, use: retry)
    }

    struct Page: Encodable {
        let layout: Layout
        let sections: [Section]
    }

    /// A `JobBoard` section as shown: `title` stays the English one (the page compares it and uses
    /// it in ids), `label` is what the reader sees.
    struct Section: Encodable {
        let title: String
        let label: String
        let count: Int
        /// How many rows are listed (at most 100 of `count`).
        let shown: Int
        let rows: [JobBoard.Row]

        init(_ section: JobBoard.Section) {
            title = section.title
            label =
                switch section.title {
                case "Running": t("Running")
                case "Due": t("Due")
                case "Failed": t("Failed")
                default: section.title
                }
            count = section.count
            shown = section.rows.count
            rows = section.rows
        }
    }

    func page(req: Request) async throws -> View {
        _ = try AdminAccess.load(req)
        let board = try await JobBoard.load(now: req.now, on: req.db)
        return try await req.view.render(
            "admin/jobs", Page(layout: req.layout(title: t("Background jobs")), sections: board.sections.map(Section.init)))
    }

    func retry(req: Request) async throws -> Response {
        _ = try AdminAccess.load(req)
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
            try await req.application.jobs.retry(id, now: req.now, on: req.db)
        else {
            throw Abort(.notFound, reason: t("There is no failed job with that id; it may have been retried already."))
        }
        req.flash(.success, t("The job is queued again and runs within seconds."))
        return req.redirect(to: .adminJobs)
    }
}
