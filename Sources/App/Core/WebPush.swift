import Crypto
import Foundation

/// The message encryption of Web Push (RFC 8291, with the `aes128gcm` content coding of RFC 8188)
/// and the VAPID token that names the sender to the push service (RFC 8292), on swift-crypto alone.
enum WebPush {
    struct Invalid: Error, CustomStringConvertible { let description: String }

    /// The record size written in the header: the whole message is one record, so it only has to be
    /// larger than the message (RFC 8291 keeps messages under 4096 bytes; the RFC's example uses this).
    static let recordSize: UInt32 = 4096
    /// The most plaintext one record holds: the record size less the delimiter and the AES-GCM tag.
    static let maxPlaintext = Int(recordSize) - 1 - 16

    /// The encrypted body for a subscription whose browser holds the private half of `p256dh`
    /// (65 bytes, an uncompressed P-256 point) and the 16-byte `auth` secret. `sender` (a fresh key
    /// pair for every message) and `salt` (16 random bytes) are parameters only so the RFC's
    /// example can be checked.
    static func encrypt(
        _ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8], sender: P256.KeyAgreement.PrivateKey = .init(),
        salt: [UInt8] = randomBytes(16)
    ) throws -> [UInt8] {
        guard plaintext.count <= maxPlaintext else { throw Invalid(description: "A push message holds at most \(maxPlaintext) bytes.") }
        guard auth.count == 16 else { throw Invalid(description: "The auth secret is not 16 bytes.") }
        guard salt.count == 16 else { throw Invalid(description: "The salt is not 16 bytes.") }
        let receiver = try P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        let senderPublic = Array(sender.publicKey.x963Representation)
        let shared = try sender.sharedSecretFromKeyAgreement(with: receiver)
        // RFC 8291 section 3.4: IKM = HKDF(auth, ecdh_secret, "WebPush: info" || 0 || ua_public || as_public, 32).
        let keyInfo = Array("WebPush: info".utf8) + [0] + Array(receiver.x963Representation) + senderPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 section 2.2 and 2.3: the content encryption key and the nonce, from the salt.
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // One record, the last: the padding delimiter 2 and no padding. Its sequence number is 0,
        // so the nonce is used as derived.
        let sealed = try AES.GCM.seal(
            plaintext + [2], using: cek, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }))
        let size = recordSize
        let header =
            salt + [UInt8(size >> 24), UInt8((size >> 16) & 0xff), UInt8((size >> 8) & 0xff), UInt8(size & 0xff)]
            + [UInt8(senderPublic.count)] + senderPublic
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The `Authorization` header for a push to `endpoint`: `vapid t=<JWT>, k=<public key>`, the JWT
    /// signed with ES256 by the site's key, for the endpoint's origin, valid until `expires` (at
    /// most 24 hours ahead, RFC 8292 section 2), naming `subject` (a mailto: or https: address)
    /// for the push service to write to.
    static func vapidAuthorization(endpoint: URL, key: P256.Signing.PrivateKey, subject: String, expires: Date) throws -> String {
        guard let origin = origin(of: endpoint) else { throw Invalid(description: "The endpoint has no origin.") }
        struct Header: Encodable {
            let typ = "JWT"
            let alg = "ES256"
        }
        struct Claims: Encodable {
            let aud: String
            let exp: Int
            let sub: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let signingInput =
            base64URL(try encoder.encode(Header())) + "."
            + base64URL(try encoder.encode(Claims(aud: origin, exp: Int(expires.timeIntervalSince1970.rounded(.down)), sub: subject)))
        let signature = try key.signature(for: Data(signingInput.utf8))
        return "vapid t=\(signingInput).\(base64URL(signature.rawRepresentation)), k=\(base64URL(key.publicKey.x963Representation))"
    }

    /// `scheme://host[:port]`, as the `aud` claim wants it.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(host)" + (url.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? "")
    }

    // MARK: base64url without padding (RFC 4648 section 5), as keys and tokens travel

    static func base64URL(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text (with or without padding; plain base64's `+` and `/` are taken
    /// too, since some browsers hand keys over that way); nil for anything else.
    static func bytes(base64URL text: String) -> [UInt8]? {
        guard text.utf8.count <= 4096, text.utf8.allSatisfy({ $0 < 128 }) else { return nil }
        var plain = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while plain.hasSuffix("=") { plain.removeLast() }
        guard plain.utf8.count % 4 != 1 else { return nil }
        plain += String(repeating: "=", count: (4 - plain.utf8.count % 4) % 4)
        return Data(base64Encoded: plain).map(Array.init)
    }
}
