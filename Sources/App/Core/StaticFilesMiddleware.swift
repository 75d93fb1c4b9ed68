import Vapor

/// Serves `Public/` with caching headers. CSS and JS change with releases, so browsers revalidate
/// them (ETag) instead of keeping stale copies.
struct StaticFilesMiddleware: AsyncMiddleware {
    private let files: FileMiddleware

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: nil)
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard path.hasPrefix("/css/") || path.hasPrefix("/js/") || path.hasPrefix("/img/") || path == "/favicon.svg" else {
            return try await next.respond(to: request)
        }
        let response = try await files.respond(to: request, chainingTo: next).get()
        if response.status == .ok || response.status == .notModified {
            response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=300, must-revalidate")
        }
        return response
    }
}
