import Vapor

/// `GET /api/v1/openapi.json`: the device API described in OpenAPI 3.1, from
/// `Resources/OpenAPI/openapi.json` (read once at start; a test keeps it honest by calling every
/// documented route with its example).
struct OpenAPIController: RouteCollection {
    let document: ByteBuffer

    init(app: Application) throws {
        let path = app.directory.workingDirectory + "Resources/OpenAPI/openapi.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Abort(.internalServerError, reason: "The API description is missing at \(path).")
        }
        document = ByteBuffer(data: data)
    }

    func boot(routes: any RoutesBuilder) throws {
        routes.get(IngestPath.openAPIDocument) { _ -> Response in
            Response(
                status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"],
                body: .init(buffer: document))
        }
    }
}
