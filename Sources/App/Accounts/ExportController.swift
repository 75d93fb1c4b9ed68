import Fluent
import Vapor

/// `/settings/export`: a person asks for everything the server holds about them, it is built in
/// the background (`AccountExport`), and the page offers it for download once ready. Only the
/// person themselves can reach their file: its path comes from the session, never from the URL.
struct ExportController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.exportSettings, use: page)
        routes.post(AccountPath.exportSettings, use: start)
        routes.get(AccountPath.exportDownload, use: download)
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
        let state = try await ExportJob.state(of: userID, on: req.db)
        let ready = state == .preparing ? nil : AccountExport.ready(for: userID, config: req.application.config, now: req.now)
        let format = Format(user)
        return try await req.view.render(
            "accounts/settings_export",
            Page(
                layout: req.layout(title: t("Export your data"), section: .settings, refreshSeconds: state == .preparing ? 3 : nil),
                preparing: state == .preparing, failed: state == .failed,
                ready: ready.map { format.when($0.made) }, until: ready.map { format.when($0.made.addingTimeInterval(AccountExport.keptFor)) },
                size: ready.map { Format.fileSize($0.bytes) }
            ))
    }

    func start(req: Request) async throws -> Response {
        let userID = try req.requireUser().requireID()
        try await ExportJob.start(for: userID, app: req.application, now: req.now, on: req.db)
        req.flash(.info, t("Your export is being prepared. This page shows it when it is ready."))
        return req.redirect(to: .exportSettings)
    }

    func download(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        guard try await ExportJob.state(of: userID, on: req.db) != .preparing,
            let ready = AccountExport.ready(for: userID, config: req.application.config, now: req.now)
        else {
            throw Abort(.notFound, reason: t("There is no export ready. Prepare one on the export page."))
        }
        let response = try await req.fileio.asyncStreamFile(at: ready.path, mediaType: .zip)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-store")
        response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"fieldhouse-\(user.username).zip\"")
        return response
    }
}

/// Makes a person's export in the background, on whichever process takes the job. The page and
/// the download read the state from the job table and the file from the shared data directory, so
/// every process behind the proxy answers alike.
enum ExportJob {
    struct Payload: Codable, Sendable { let user: UUID }

    static let kind = JobKind("accounts.export", transactional: false) { run in
        let payload = try run.payload(as: Payload.self)
        try await AccountExport.write(for: payload.user, now: run.now, on: run.db, config: run.app.config, features: run.app.features)
    }

    enum State { case none, preparing, failed }

    /// The state of this person's latest export job: waiting or running (and being tried again
    /// after a failure) is `preparing`.
    static func state(of user: UUID, on db: any Database) async throws -> State {
        let latest = try await Job.query(on: db).filter(\.$kind == kind.name).filter(\.$payload == payload(user))
            .sort(\.$runAt, .descending).first()
        switch latest?.state {
        case .queued: return .preparing
        case .failed: return .failed
        case .done, nil: return .none
        }
    }

    /// Asks for an export unless one is under way already.
    static func start(for user: UUID, app: Application, now: Date, on db: any Database) async throws {
        guard try await state(of: user, on: db) != .preparing else { return }
        // Two requests at once (a double click, two tabs on two processes) make one job: the key
        // is the person and the minute.
        let minute = Int((now.timeIntervalSince1970 / 60).rounded(.down))
        try await app.jobs.enqueue(kind.name, payload: Payload(user: user), at: now, key: "accounts.export:\(user.uuidString.lowercased()):\(minute)", on: db)
    }

    /// Forgets this person's export jobs (their account is being deleted).
    static func forget(_ user: UUID, on db: any Database) async throws {
        try await Job.query(on: db).filter(\.$kind == kind.name).filter(\.$payload == payload(user)).delete()
    }

    /// The payload exactly as `Job.enqueue` stores it, to find this person's jobs.
    private static func payload(_ user: UUID) -> String {
        String(decoding: (try? JSONEncoder().encode(Payload(user: user))) ?? Data(), as: UTF8.self)
    }
}
