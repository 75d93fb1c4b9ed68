import Vapor

/// A route's path, spelled once. A feature lists its paths as the cases of an enum whose raw values
/// are the patterns as the router and `docs/ROUTES.md` write them (`"/games/:id/edit"`). The feature
/// registers its routes with those cases (`routes.get(GamePath.editGame, use: …)`) and makes its
/// links from the same cases (`SiteURL(GamePath.editGame, SiteURL.id(id))`), and `RoutePathTests`
/// finds every case among the registered routes, and every route the feature registers among its
/// cases (`Feature.routePatterns`).
protocol RoutePattern: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension RoutePattern {
    /// The pattern's segments as the router takes them: `":id"` is a parameter.
    var components: [PathComponent] { rawValue.split(separator: "/").map { PathComponent(stringLiteral: String($0)) } }

    /// Every pattern of the enum, for `Feature.routePatterns`.
    static var patterns: [String] { allCases.map(\.rawValue) }
}

extension SiteURL {
    /// `pattern` with its parameters filled in by `values`, in order, each escaped. A pattern given
    /// the wrong number of values is a mistake in the code, which `RoutePathTests` catches: what is
    /// missing is left empty rather than stopping the process.
    init<Pattern: RoutePattern>(_ pattern: Pattern, _ values: String...) {
        var values = values[...]
        let segments = pattern.rawValue.split(separator: "/").map { part in
            part.hasPrefix(":") ? values.popFirst() ?? "" : String(part)
        }
        assert(values.isEmpty, "\(pattern.rawValue) was given more values than it has parameters")
        self.init(segments: segments)
    }
}

extension RoutesBuilder {
    @discardableResult
    func get<Pattern: RoutePattern, Response: AsyncResponseEncodable>(
        _ pattern: Pattern, use closure: @escaping @Sendable (Request) async throws -> Response
    ) -> Vapor.Route {
        get(pattern.components, use: closure)
    }

    @discardableResult
    func post<Pattern: RoutePattern, Response: AsyncResponseEncodable>(
        _ pattern: Pattern, use closure: @escaping @Sendable (Request) async throws -> Response
    ) -> Vapor.Route {
        post(pattern.components, use: closure)
    }

    /// A route with another method or body strategy (an upload collected up to a size).
    @discardableResult
    func on<Pattern: RoutePattern, Response: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ pattern: Pattern, body: HTTPBodyStreamStrategy = .collect,
        use closure: @escaping @Sendable (Request) async throws -> Response
    ) -> Vapor.Route {
        on(method, pattern.components, body: body, use: closure)
    }
}

/// The paths Core itself names, so features below the one that serves them can link there.
enum SitePath: String, RoutePattern {
    /// The front page (served by Home).
    case home = "/"
    /// Served by Games; Teams and Community send people there.
    case find = "/find"
}
