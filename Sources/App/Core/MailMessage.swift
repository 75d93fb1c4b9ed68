import Foundation

/// One e-mail, ready to hand to an SMTP server: plain text and HTML alternatives of the same words.
///
/// Only `rendered()` turns it into bytes: every header value is stripped of line breaks there, and
/// both bodies are base64, so nothing a person typed (a team name in a subject) can add a header or
/// end the message early.
struct MailMessage: Sendable, Equatable {
    var fromName: String
    var fromAddress: String
    var to: String
    var subject: String
    var text: String
    var html: String
    /// Without angle brackets: "<uuid>@<host>".
    var messageID: String
    var date: Date
    /// The address of the one-click unsubscribe page (RFC 8058), for notification e-mails.
    var unsubscribe: String?

    /// The message in RFC 5322 form with CRLF line ends, before SMTP's dot-stuffing.
    func rendered(boundary: String = "fh-" + UUID().uuidString) -> String {
        var headers: [(String, String)] = [
            ("From", "\(Self.displayName(fromName)) <\(Self.clean(fromAddress))>"),
            ("To", "<\(Self.clean(to))>"),
            ("Subject", Self.encodedWord(subject)),
            ("Date", Format.rfc5322(date)),
            ("Message-ID", "<\(Self.clean(messageID))>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "multipart/alternative; boundary=\"\(boundary)\""),
            // Tells mail programs this is sent by a machine, so no holiday auto-replies.
            ("Auto-Submitted", "auto-generated"),
        ]
        if let unsubscribe {
            headers.append(("List-Unsubscribe", "<\(Self.clean(unsubscribe))>"))
            headers.append(("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))
        }
        var lines = headers.map { "\($0.0): \($0.1)" }
        lines.append("")
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            lines.append("--\(boundary)")
            lines.append("Content-Type: \(type); charset=utf-8")
            lines.append("Content-Transfer-Encoding: base64")
            lines.append("")
            lines.append(contentsOf: Self.base64Lines(body))
        }
        lines.append("--\(boundary)--")
        lines.append("")
        return lines.joined(separator: "\r\n")
    }

    /// A header value on one line: line breaks and other control characters become spaces.
    static func clean(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? " " : $0 }))
    }

    /// ASCII text as it is; anything else as RFC 2047 encoded words, split on whole characters so
    /// each word stays under the 75-character limit.
    static func encodedWord(_ value: String) -> String {
        let value = clean(value)
        if value.unicodeScalars.allSatisfy({ $0.isASCII }) && !value.contains("=?") { return value }
        var words: [String] = []
        var chunk = ""
        for character in value {
            if chunk.utf8.count + character.utf8.count > 39 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// A display name as one phrase: "Club, Inc" would otherwise read as two mailboxes.
    static func displayName(_ name: String) -> String {
        let name = clean(name)
        guard name.unicodeScalars.allSatisfy({ $0.isASCII }) else { return encodedWord(name) }
        guard name.contains(where: { "()<>[]:;@\\,.\"".contains($0) }) else { return name }
        return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func base64Lines(_ body: String) -> [String] {
        let bytes = Array(Data(body.utf8).base64EncodedString().utf8)
        return stride(from: 0, to: bytes.count, by: 76).map { String(decoding: bytes[$0..<min($0 + 76, bytes.count)], as: UTF8.self) }
    }
}
