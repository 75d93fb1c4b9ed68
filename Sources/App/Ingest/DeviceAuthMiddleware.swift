import Fluent
import SQLKit
import Vapor

/// `Authorization: Bearer <device token>` for the device API. A missing, unknown or revoked token
/// is a 401 in JSON; a good one makes its person the request's user for this request only.
struct DeviceAuthMiddleware: AsyncMiddleware {
    static let touchInterval: TimeInterval = 60

    /// Set once the request's token has been checked (by `DeviceTokenMiddleware`), so it is not looked up twice.
    struct CheckedKey: StorageKey { typealias Value = Bool }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.storage[CheckedKey.self] != true {
            try await Self.signIn(request)
        }
        return try await next.respond(to: request)
    }

    /// Signs the request in as the token's person, or throws the 401.
    static func signIn(_ request: Request) async throws {
        guard let token = request.headers.bearerAuthorization?.token, !token.isEmpty, token.count < 200 else {
            throw APIError(
                status: .unauthorized, code: "unauthorized",
                reason: t("Send the device token from Settings → Devices as “Authorization: Bearer <token>”."))
        }
        let sql = request.db.sql
        struct Row: Decodable { let device_id: UUID; let last_used_at: Date? }
        guard
            let row = try await sql.raw(
                """
                SELECT d.id AS device_id, d.last_used_at, u.*
                FROM device_tokens d JOIN users u ON u.id = d.user_id
                WHERE d.token_hash = \(bind: RandomToken.hash(token)) AND d.revoked_at IS NULL
                """
            ).first(), let device = try? row.decode(model: Row.self),
            let user = try? User(row: row.decode(model: User.Row.self))
        else {
            throw APIError(status: .unauthorized, code: "unauthorized", reason: t("This device token is unknown or has been revoked."))
        }
        let now = request.now
        // "Last used" to the minute is plenty, and spares a write on every request of a busy strap.
        if device.last_used_at.map({ now.timeIntervalSince($0) > touchInterval }) ?? true {
            try await sql.update(DeviceToken.schema).set("last_used_at", to: now).where("id", .equal, device.device_id).run()
        }
        request.auth.login(user)
        request.storage[CheckedKey.self] = true
    }
}

/// On every route under `/api/`, a request that carries a device token is signed in as its person,
/// also on routes other features register that take a token or none (`/api/v1/find` then searches
/// around the person's home area, as it does for a session). A token that is unknown or revoked is
/// a 401 there too, rather than being quietly ignored.
struct DeviceTokenMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.url.path.hasPrefix("/api/"), request.headers.bearerAuthorization != nil {
            try await DeviceAuthMiddleware.signIn(request)
        }
        return try await next.respond(to: request)
    }
}
