import Crypto
import Foundation
import Vapor

/// A key only this server holds, for secret addresses that must be shown again but are never
/// stored: the database keeps only a token's hash, and the token itself is worked out from this
/// key when its owner opens the page. A copy of the database alone (a backup, a dump, a log of its
/// queries) therefore opens nothing.
///
/// From `FIELDHOUSE_SECRET_KEY` when set (every server of a cluster needs the same one), else from
/// `<data>/secret.key`, made on first start and readable by the server's user only. Changing the
/// key changes every such address.
struct ServerSecret: Sendable {
    private let key: SymmetricKey

    static func load(config: AppConfig) throws -> ServerSecret {
        if let hex = config.secretKeyHex {
            return ServerSecret(key: SymmetricKey(data: Self.bytes(hex: hex)))
        }
        let path = config.dataDirectory + "/secret.key"
        // O_EXCL: two servers starting at once on one data folder agree on the first key written.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            let hex = Format.hex(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
            let written = hex.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, hex.utf8.count) }
            close(descriptor)
            guard written == hex.utf8.count else { throw Abort(.internalServerError, reason: "Could not write \(path).") }
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            case let hex = text.trimmingCharacters(in: .whitespacesAndNewlines), Self.isValid(hex: hex)
        else {
            throw AppConfig.Invalid(variable: path, value: "(unreadable)", expected: "64 hexadecimal digits; delete the file to make a new key")
        }
        return ServerSecret(key: SymmetricKey(data: Self.bytes(hex: hex)))
    }

    /// 64 hexadecimal digits: 32 bytes.
    static func isValid(hex: String) -> Bool {
        hex.utf8.count == 64
            && hex.utf8.allSatisfy {
                ("0"..."9").contains(Character(UnicodeScalar($0))) || ("a"..."f").contains(Character(UnicodeScalar($0).properties.lowercaseMapping))
            }
    }

    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
    }

    /// An unguessable token for `purpose` and `parts`: the same inputs always give the same token,
    /// which only this key can make. URL-safe base64, 43 characters.
    func token(for purpose: String, _ parts: String...) -> String {
        let message = ([purpose] + parts).joined(separator: "\u{1F}")
        let code = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)
        return Data(code).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

extension Application {
    private struct ServerSecretKey: StorageKey { typealias Value = ServerSecret }

    /// Set once by `configure`.
    var serverSecret: ServerSecret {
        get { storage[ServerSecretKey.self]! }
        set { storage[ServerSecretKey.self] = newValue }
    }
}
