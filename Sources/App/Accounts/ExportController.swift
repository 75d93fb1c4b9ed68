import Fluent
import Vapor

/// `/settings/export`: a person asks for everything the server holds about them, it is built in
/// the background (`AccountExport`), and the page offers it for download once ready. Only the
/// person themselves can reach their file: its path comes from the session, never from the URL.
struct ExportController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("settings", "export", use: page)
        routes.post("settings", "export", use: start)
        routes.get("settings", "export", "download", use: download)
    }

    struct Page: Encodable {
        let layout: Layout
        let preparing: Bool
        let failed: Bool
        let ready: String?
        /// When the finished file is deleted.
        let until: String?
        let size: String?
    }

    func page(req: Request) async throws -> View {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let state = await req.application.exportJobs.state(of: userID)
        let ready = state == .running ? nil : AccountExport.ready(for: userID, config: req.application.config, now: req.now)
        let format = Format(user)
        return try await req.view.render(
            "accounts/settings_export",
            Page(
                layout: req.layout(title: "Export your data", section: .settings, refreshSeconds: state == .running ? 3 : nil),
                preparing: state == .running, failed: state == .failed,
                ready: ready.map { format.when($0.made) }, until: ready.map { format.when($0.made.addingTimeInterval(AccountExport.keptFor)) },
                size: ready.map { Format.fileSize($0.bytes) }
            ))
    }

    func start(req: Request) async throws -> Response {
        let userID = try req.requireUser().requireID()
        let app = req.application
        await app.exportJobs.start(userID) {
            try await AccountExport.write(for: userID, now: app.clock.now, on: app.db, config: app.config)
        }
        req.flash(.info, "Your export is being prepared. This page shows it when it is ready.")
        return req.redirect(to: .exportSettings)
    }

    func download(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        guard await req.application.exportJobs.state(of: userID) != .running,
            let ready = AccountExport.ready(for: userID, config: req.application.config, now: req.now)
        else {
            throw Abort(.notFound, reason: "There is no export ready. Prepare one on the export page.")
        }
        let response = try await req.fileio.asyncStreamFile(at: ready.path, mediaType: .zip)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-store")
        response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"fieldhouse-\(user.username).zip\"")
        return response
    }
}

/// The exports being built, one at a time per person. Lives only in memory: after a restart a
/// half-made file is simply made again when asked.
actor ExportJobs {
    enum State { case none, running, failed }

    private var running: [UUID: Task<Void, Never>] = [:]
    private var failed: Set<UUID> = []
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func state(of userID: UUID) -> State {
        running[userID] != nil ? .running : failed.contains(userID) ? .failed : .none
    }

    func start(_ userID: UUID, work: @escaping @Sendable () async throws -> Void) {
        guard running[userID] == nil else { return }
        failed.remove(userID)
        running[userID] = Task {
            do {
                try await work()
            } catch {
                logger.error("Export for \(userID) failed: \(error)")
                markFailed(userID)
            }
            finish(userID)
        }
    }

    private func markFailed(_ userID: UUID) { failed.insert(userID) }
    private func finish(_ userID: UUID) { running[userID] = nil }

    /// Waits for this person's export, if one is being made (before their account is deleted).
    func wait(for userID: UUID) async {
        await running[userID]?.value
    }

    /// Waits for every export under way (tests, and shutdown before the database closes).
    func idle() async {
        while let task = running.values.first { await task.value }
    }
}

extension Application {
    private struct ExportJobsKey: StorageKey { typealias Value = ExportJobs }

    /// Set once by `configure`.
    var exportJobs: ExportJobs {
        get { storage[ExportJobsKey.self]! }
        set { storage[ExportJobsKey.self] = newValue }
    }
}
