import Crypto
import Foundation

/// Unguessable tokens for sessions, CSRF and share links, and their stored hashes.
enum RandomToken {
    /// 32 random bytes as URL-safe base64 (43 characters).
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func hash(_ token: String) -> String {
        Format.hex(SHA256.hash(data: Data(token.utf8)))
    }

    /// Compares without stopping at the first difference, so timing reveals nothing.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
