import Crypto
import Foundation
import Vapor

/// The site's VAPID key pair (RFC 8292): P-256, the private half signing every push, the public half
/// given to browsers as `applicationServerKey` when they subscribe. A push service refuses pushes
/// signed by another key, so every process of the site must use the same one for as long as any
/// subscription lives.
///
/// Kept in `<data>/vapid.key` (the private scalar in hexadecimal, readable by the server's user
/// only), made on first start. Two processes starting at once on one data folder agree on the
/// first key: each writes a whole file under a name of its own and links it into place, which
/// only one link can do, so no process ever reads a half-written key.
struct VAPIDKey: Sendable {
    let privateKey: P256.Signing.PrivateKey

    /// The uncompressed point, base64url: what `pushManager.subscribe` takes and `k=` carries.
    var publicKeyBase64URL: String { WebPush.base64URL(privateKey.publicKey.x963Representation) }

    static let fileName = "vapid.key"

    static func load(dataDirectory: String) throws -> VAPIDKey {
        let path = dataDirectory + "/" + fileName
        if !FileManager.default.fileExists(atPath: path) {
            let draft = path + ".\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString)"
            let hex = Format.hex(P256.Signing.PrivateKey().rawRepresentation) + "\n"
            guard FileManager.default.createFile(atPath: draft, contents: Data(hex.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw Abort(.internalServerError, reason: "Could not write \(draft).")
            }
            // link(2) fails when the name exists: whoever linked first made the key.
            _ = link(draft, path)
            unlink(draft)
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let raw = bytes(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw AppConfig.Invalid(
                variable: path, value: "(unreadable)",
                expected: "a P-256 private key as 64 hexadecimal digits; deleting the file makes a new key and ends every browser's subscription")
        }
        return VAPIDKey(privateKey: key)
    }

    private static func bytes(hex: String) -> [UInt8]? {
        guard hex.utf8.count == 64 else { return nil }
        let digits = Array(hex.utf8)
        let pairs = stride(from: 0, to: 64, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
        return pairs.contains(nil) ? nil : pairs.compactMap { $0 }
    }
}

extension Application {
    private struct VAPIDKeyKey: StorageKey { typealias Value = VAPIDKey }

    /// Set once by `configure`, beside the server secret (`VAPIDKey.load`).
    var vapidKey: VAPIDKey {
        get { storage[VAPIDKeyKey.self]! }
        set { storage[VAPIDKeyKey.self] = newValue }
    }
}
