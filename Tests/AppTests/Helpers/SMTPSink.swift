@testable import App
import Foundation
import Testing

/// A real SMTP server on loopback (`scripts/smtp-sink.py`, aiosmtpd), one per test, keeping every
/// message it accepts. `make test` makes its Python environment (`scripts/test-tools.sh`).
final class SMTPSink: @unchecked Sendable {
    struct Mail {
        let envelopeTo: String
        let headers: [String: String]
        let text: String
        let html: String
        var subject: String { headers["subject"] ?? "" }

        /// The first address in the text that starts with `prefix` (an absolute URL).
        func link(startingWith prefix: String) -> String? {
            text.components(separatedBy: .whitespacesAndNewlines).first { $0.hasPrefix(prefix) }
        }
    }

    let folder: String
    private let server: LocalServer
    var port: Int { server.port }

    static func start() throws -> SMTPSink {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldhouse-smtp-" + UUID().uuidString).path
        return SMTPSink(folder: folder, server: try LocalServer.start("smtp-sink.py", arguments: ["--dir", folder]))
    }

    private init(folder: String, server: LocalServer) {
        self.folder = folder
        self.server = server
    }

    /// The settings that send to this server.
    var settings: SMTPSettings { SMTPSettings(host: "127.0.0.1", port: port, security: .startTLS, username: nil, password: nil) }

    /// Points an app's configuration at this server.
    func configure(_ config: inout AppConfig) {
        config.smtp = settings
        config.mailFromAddress = "club@fieldhouse.test"
        config.mailFromName = "Riverside Club"
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Every message accepted so far, oldest first.
    func messages() throws -> [Mail] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
        return try names.map { try Self.parse(String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) }
    }

    func messages(to address: String) throws -> [Mail] { try messages().filter { $0.envelopeTo == address } }

    struct SinkError: Error, CustomStringConvertible { let description: String }

    /// Reads the messages Fieldhouse writes: headers, then a multipart/alternative body of base64
    /// parts. Encoded-word subjects are decoded.
    static func parse(_ raw: String) throws -> Mail {
        let normalized = raw.replacingOccurrences(of: "\r\n", with: "\n")
        guard let split = normalized.range(of: "\n\n") else { throw SinkError(description: "no body") }
        var headers: [String: String] = [:]
        var last: String?
        for line in normalized[..<split.lowerBound].split(separator: "\n") {
            if line.first == " " || line.first == "\t", let last {
                headers[last, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                last = name
            }
        }
        headers["subject"] = decodeWords(headers["subject"] ?? "")
        guard let type = headers["content-type"], let boundaryStart = type.range(of: "boundary=\"") else { throw SinkError(description: "not multipart") }
        let boundary = String(type[boundaryStart.upperBound...].prefix { $0 != "\"" })
        var parts: [String: String] = [:]
        for part in normalized[split.upperBound...].components(separatedBy: "--" + boundary).dropFirst() {
            guard let blank = part.range(of: "\n\n") else { continue }
            let head = part[..<blank.lowerBound].lowercased()
            let body = part[blank.upperBound...].filter { !$0.isWhitespace }
            let decoded = Data(base64Encoded: String(body)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            parts[head.contains("text/html") ? "html" : "text"] = decoded
        }
        return Mail(envelopeTo: headers["x-envelope-to"] ?? "", headers: headers, text: parts["text"] ?? "", html: parts["html"] ?? "")
    }

    static func decodeWords(_ value: String) -> String {
        value.components(separatedBy: " ").map { word -> String in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
                let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
            else { return word + " " }
            return String(decoding: data, as: UTF8.self)
        }.joined().trimmingCharacters(in: .whitespaces)
    }
}

/// Runs `test` with a real SMTP server and an app that sends to it.
func withMailApp(_ test: (TestApp, SMTPSink) async throws -> Void) async throws {
    let sink = try SMTPSink.start()
    defer { sink.stop() }
    try await withApp(config: { sink.configure(&$0) }) { app in try await test(app, sink) }
}
