import Foundation
import NIOCore

/// Where e-mail goes: the parsed `FIELDHOUSE_SMTP_URL`.
///
/// - `smtp://user:pass@host:587` talks plain SMTP and upgrades with STARTTLS. A server that does
///   not offer it gets nothing (the messages hold password-reset links), except a server on this
///   machine or one named with `?starttls=optional` (a relay on a trusted network).
/// - `smtps://user:pass@host:465` speaks TLS from the first byte.
///
/// User and password are percent-decoded, so a password with `@` or `:` is written `%40`, `%3A`.
struct SMTPSettings: Sendable, Equatable {
    enum Security: Sendable, Equatable {
        case startTLS, tls
    }

    var host: String
    var port: Int
    var security: Security
    var username: String?
    var password: String?
    /// `?starttls=optional`: a plain connection is accepted when the server offers no STARTTLS.
    var startTLSOptional = false

    /// nil for anything that is not a usable smtp:// or smtps:// URL.
    static func parse(_ raw: String) -> SMTPSettings? {
        guard let parts = URLComponents(string: raw), let scheme = parts.scheme?.lowercased(),
            let host = parts.host, !host.isEmpty, parts.path.isEmpty || parts.path == "/"
        else { return nil }
        let query = parts.queryItems ?? []
        guard query.allSatisfy({ $0.name == "starttls" && $0.value == "optional" }) else { return nil }
        let security: Security
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .tls
        default: return nil
        }
        let port = parts.port ?? (security == .tls ? 465 : 587)
        guard (1...65535).contains(port) else { return nil }
        // A user without a password (or the reverse) is a typo, not a choice.
        let username = parts.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        let password = parts.percentEncodedPassword.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        guard (username == nil) == (password == nil) else { return nil }
        // IPv6 literals arrive in brackets.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return SMTPSettings(
            host: bare, port: port, security: security, username: username, password: password, startTLSOptional: !query.isEmpty)
    }

    /// The host as an IP address, when it is one.
    private var ipAddress: SocketAddress? { try? SocketAddress(ipAddress: host, port: port) }

    /// A server on this machine, the one place mail may travel without TLS unasked. By address,
    /// not by name: "127.mail.example.org" is not this machine.
    var isLoopback: Bool {
        if host == "localhost" { return true }
        switch ipAddress {
        case .v4(let address): return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
        case .v6: return host == "::1"
        default: return false
        }
    }

    /// Whether a server without STARTTLS must be refused.
    var requiresTLS: Bool { security == .startTLS && !startTLSOptional && !isLoopback }

    /// The name the certificate is checked against; nil for an IP address, which SNI cannot carry.
    var serverHostname: String? { ipAddress == nil ? host : nil }

    /// For the start-up line: never the password.
    var summary: String {
        "\(security == .tls ? "smtps" : "smtp")://\(username.map { "\($0)@" } ?? "")\(host):\(port)"
    }
}

/// An e-mail address as Fieldhouse sends to it: one `local@domain` without spaces, angle brackets
/// or line breaks, so it can be put into an SMTP command or a header as it is.
enum MailAddress {
    static func isValid(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return address.utf8.count <= 254 && parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && address.unicodeScalars.allSatisfy { $0.value > 32 && $0.value != 127 && !"<>()[],;:\"\\".unicodeScalars.contains($0) }
    }
}
