import Vapor

/// Under `/api/`, a path the API has asked with a method it does not take is a 405 with `Allow`
/// listing the methods it does take (RFC 9110), in the API's JSON error shape; Vapor's router
/// alone would say 404, as if the path did not exist. Pages keep their 404.
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let notFound as RouteNotFound {
            guard request.url.path.hasPrefix("/api/") else { throw notFound }
            let allowed = Self.methods(for: request.url.path, in: request.application.routes.all)
            guard !allowed.isEmpty else { throw notFound }
            let response = Response(status: .methodNotAllowed, headers: ["Allow": allowed.joined(separator: ", ")])
            try response.content.encode(
                APIErrorBody(
                    error: .init(
                        code: "method_not_allowed",
                        message: t("This address does not take {method}. It takes {methods}.", request.method.rawValue, allowed.joined(separator: ", ")))))
            return response
        }
    }

    /// The methods the routes matching `path` take, in a fixed order; HEAD wherever GET is, as
    /// Vapor answers HEAD with the GET route.
    static func methods(for path: String, in routes: [Vapor.Route]) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var methods = Set(routes.filter { matches($0.path, parts) }.map(\.method.rawValue))
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }

    private static func matches(_ pattern: [PathComponent], _ parts: [String]) -> Bool {
        for (index, component) in pattern.enumerated() {
            switch component {
            case .catchall:
                return parts.count > index
            case .constant(let text):
                guard index < parts.count, parts[index] == text else { return false }
            case .parameter, .anything:
                guard index < parts.count else { return false }
            }
        }
        return pattern.count == parts.count
    }
}
