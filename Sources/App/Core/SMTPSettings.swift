import Foundation

/// Where e-mail goes: the parsed `FIELDHOUSE_SMTP_URL`.
///
/// - `smtp://user:pass@host:587` talks plain SMTP and upgrades with STARTTLS whenever the server
///   offers it. A password is never sent over an unencrypted connection, except to a server on this
///   machine (a local relay).
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

    /// nil for anything that is not a usable smtp:// or smtps:// URL.
    static func parse(_ raw: String) -> SMTPSettings? {
        guard let parts = URLComponents(string: raw), let scheme = parts.scheme?.lowercased(),
            let host = parts.host, !host.isEmpty, parts.path.isEmpty || parts.path == "/"
        else { return nil }
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
        return SMTPSettings(host: bare, port: port, security: security, username: username, password: password)
    }

    /// A server on this machine: the one place a password may travel without TLS.
    var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

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
