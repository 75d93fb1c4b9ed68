import Fluent
import Vapor

/// `/settings/devices`: name a device to get its API token (shown once), see when each was last
/// used, revoke one.
struct DeviceController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(IngestPath.deviceSettings, use: page)
        routes.post(IngestPath.deviceSettings, use: create)
        routes.post(IngestPath.revokeDevice, use: revoke)
    }

    struct Row: Encodable {
        let id: String
        let name: String
        let created: String
        let lastUsed: String
    }

    struct DevicesPage: Encodable {
        let layout: Layout
        let devices: [Row]
        let newToken: String?
        let newName: String?
        let name: String
        let error: String?
        let exampleURL: String
    }

    private func render(_ req: Request, newToken: String? = nil, newName: String? = nil, name: String = "", error: String? = nil) async throws -> Response {
        let user = try req.requireUser()
        let tokens = try await DeviceToken.query(on: req.db).filter(\.$user.$id == user.requireID())
            .filter(\.$revokedAt == nil).sort(\.$createdAt, .descending).all()
        let rows = try tokens.map { token in
            Row(
                id: try token.requireID().uuidString.lowercased(), name: token.name,
                created: Format(user).shortWhen(token.createdAt ?? req.now),
                lastUsed: token.lastUsedAt.map(Format(user).shortWhen) ?? t("Never"))
        }
        let page = DevicesPage(
            layout: req.layout(title: t("Devices"), section: .settings), devices: rows, newToken: newToken,
            newName: newName, name: name, error: error, exampleURL: req.application.config.absolute(.apiSamples))
        return try await req.view.render("accounts/settings_devices", page)
            .encodeResponse(status: error == nil ? .ok : .unprocessableEntity, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req)
    }

    struct Form: Content { var name: String? }

    func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let name = (try? req.content.decode(Form.self).name)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !name.isEmpty, name.count <= 60 else {
            return try await render(
                req, name: name, error: name.isEmpty ? t("Name the device, e.g. “Polar strap” or “Bike computer”.") : t("Keep the name to 60 characters."))
        }
        let active = try await DeviceToken.query(on: req.db).filter(\.$user.$id == user.requireID()).filter(\.$revokedAt == nil).count()
        guard active < DeviceToken.maxActive else {
            return try await render(
                req, name: name,
                error: tn(
                    "You have {count} device already. Revoke one you no longer use first.",
                    "You have {count} devices already. Revoke one you no longer use first.", DeviceToken.maxActive))
        }
        let token = "fhd_" + RandomToken.make()
        try await DeviceToken(user: user.requireID(), name: name, tokenHash: RandomToken.hash(token)).create(on: req.db)
        // The token is in this one answer only; it must not be cached anywhere.
        let response = try await render(req, newToken: token, newName: name)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    func revoke(req: Request) async throws -> Response {
        let user = try req.requireUser()
        guard let id = req.parameters.get("id", as: UUID.self),
            let token = try await DeviceToken.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == user.requireID()).first()
        else { throw Abort(.notFound) }
        token.revokedAt = req.now
        try await token.update(on: req.db)
        req.flash(.success, t("“{name}” can no longer send data.", token.name))
        return req.redirect(to: .deviceSettings)
    }
}
