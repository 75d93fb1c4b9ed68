import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Why a message was not handed over. `permanent` failures (the server refused the address for
/// good, 5xx) are not worth trying again; everything else (no connection, a dropped connection, a
/// busy server's 4xx) is.
struct SMTPFailure: Error, CustomStringConvertible {
    let description: String
    let permanent: Bool
    /// No answer at all (refused, timed out, closed): other messages need not try for a while.
    var serverAway = false
}

/// A small SMTP client (RFC 5321) on SwiftNIO: one connection per message, EHLO, STARTTLS when
/// offered (required before a password leaves this machine), AUTH PLAIN or LOGIN, one recipient,
/// DATA, QUIT. No SMTP package is available to this project; this is the part of the protocol a
/// submission server needs, with every reply line and the whole session bounded.
enum SMTPClient {
    /// The whole conversation, connecting included, must finish within this.
    static let timeout: Duration = .seconds(45)
    /// A reply line longer than this, or a reply of more lines, is a broken or hostile server.
    static let maxLineBytes = 4_096
    static let maxReplyLines = 100

    static func send(
        _ message: MailMessage, via settings: SMTPSettings, helloName: String, tls: TLSConfiguration = .makeClientConfiguration(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws {
        guard MailAddress.isValid(message.fromAddress) else {
            throw SMTPFailure(description: "The sender address \(message.fromAddress) is not an e-mail address.", permanent: true)
        }
        guard MailAddress.isValid(message.to) else {
            throw SMTPFailure(description: "The address \(message.to) is not an e-mail address.", permanent: true)
        }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch {
            throw SMTPFailure(description: "TLS could not be set up: \(error)", permanent: false)
        }
        let decoded = LineCount()
        let channel: NIOAsyncChannel<String, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(15))
                .connect(host: settings.host, port: settings.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if settings.security == .tls {
                            try channel.pipeline.syncOperations.addHandler(
                                try NIOSSLClientHandler(context: context, serverHostname: settings.serverHostname))
                        }
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder(limit: maxLineBytes, count: decoded)))
                        return try NIOAsyncChannel<String, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SMTPFailure(description: "Could not connect to \(settings.host):\(settings.port): \(error)", permanent: false, serverAway: true)
        }
        // A server that stops answering is cut off: closing the channel ends the reply stream.
        let timedOut = NIOLockedValueBox(false)
        let deadline = Task {
            try await Task.sleep(for: timeout)
            timedOut.withLockedValue { $0 = true }
            try await channel.channel.close()
        }
        defer { deadline.cancel() }
        do {
            try await channel.executeThenClose { inbound, outbound in
                var session = Session(replies: inbound.makeAsyncIterator(), outbound: outbound, decoded: decoded)
                try await session.converse(message: message, settings: settings, helloName: helloName, channel: channel.channel, context: context)
            }
        } catch let failure as SMTPFailure {
            if timedOut.withLockedValue({ $0 }) {
                throw SMTPFailure(description: "The mail server \(settings.host) did not finish within \(timeout).", permanent: false, serverAway: true)
            }
            throw failure
        } catch {
            throw SMTPFailure(description: "The connection to \(settings.host) failed: \(error)", permanent: false, serverAway: true)
        }
    }

    /// One connection's conversation.
    private struct Session {
        var replies: NIOAsyncChannelInboundStream<String>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        /// Lines the decoder made, and bytes it holds; compared with what was read after STARTTLS.
        let decoded: LineCount
        var consumed = 0

        struct Reply {
            let code: Int
            let lines: [String]
            var text: String { lines.joined(separator: " ") }
        }

        mutating func converse(
            message: MailMessage, settings: SMTPSettings, helloName: String, channel: any Channel, context: NIOSSLContext
        ) async throws {
            try await expect(220, to: "the greeting")
            var features = try await hello(helloName)
            if settings.security == .startTLS {
                if features.contains(where: { $0.uppercased() == "STARTTLS" }) {
                    try await command("STARTTLS", expect: 220)
                    // Anything sent after the 220 and before the handshake was not encrypted: it
                    // would be read as the answer to the next command (CVE-2011-0411 and kin).
                    let (lines, buffered) = decoded.box.withLockedValue { ($0.lines, $0.buffered) }
                    guard lines == consumed, buffered == 0 else {
                        throw SMTPFailure(description: "\(settings.host) sent data right after agreeing to STARTTLS; not going on.", permanent: false)
                    }
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: settings.serverHostname)
                    try await channel.pipeline.addHandler(handler, position: .first)
                    features = try await hello(helloName)
                } else if settings.requiresTLS {
                    throw SMTPFailure(
                        description:
                            "\(settings.host) offers no STARTTLS, so nothing is sent: password-reset links must not travel in clear. Use smtps://, a server with STARTTLS, or add ?starttls=optional for a relay on a trusted network.",
                        permanent: false)
                }
            }
            if let username = settings.username, let password = settings.password {
                let mechanisms = Set(
                    features.filter { $0.uppercased().hasPrefix("AUTH ") }.flatMap { $0.uppercased().split(separator: " ").dropFirst().map(String.init) })
                if mechanisms.contains("PLAIN") {
                    let token = Data(([0] + Array(username.utf8) + [0] + Array(password.utf8))).base64EncodedString()
                    try await command("AUTH PLAIN \(token)", expect: 235, secret: true)
                } else if mechanisms.contains("LOGIN") {
                    try await command("AUTH LOGIN", expect: 334)
                    try await command(Data(username.utf8).base64EncodedString(), expect: 334, secret: true)
                    try await command(Data(password.utf8).base64EncodedString(), expect: 235, secret: true)
                } else {
                    throw SMTPFailure(description: "\(settings.host) offers neither AUTH PLAIN nor AUTH LOGIN.", permanent: false)
                }
            }
            try await command("MAIL FROM:<\(message.fromAddress)>", expect: 250)
            // Only a refusal of this address or this message is final; a refusal of the sender,
            // the password or the greeting is the server's set-up, and may be fixed.
            try await command("RCPT TO:<\(message.to)>", expect: 250, 251, final: true)
            try await command("DATA", expect: 354)
            try await write(Self.dotStuffed(message.rendered()) + ".\r\n")
            try await expect([250], to: "the message", final: true)
            // The message is accepted; a failed goodbye changes nothing.
            try? await write("QUIT\r\n")
        }

        /// EHLO, and the extension lines of its reply ("STARTTLS", "AUTH PLAIN LOGIN", …).
        mutating func hello(_ name: String) async throws -> [String] {
            try await write("EHLO \(name)\r\n")
            return Array(try await expect(250, to: "EHLO").lines.dropFirst())
        }

        mutating func command(_ line: String, expect codes: Int..., secret: Bool = false, final: Bool = false) async throws {
            try await write(line + "\r\n")
            try await expect(codes, to: secret ? "AUTH" : String(line.prefix(while: { $0 != ":" && $0 != " " })), final: final)
        }

        @discardableResult
        mutating func expect(_ codes: Int..., to what: String) async throws -> Reply {
            try await expect(codes, to: what, final: false)
        }

        /// `final`: a 5xx answer means this message will never be taken.
        @discardableResult
        mutating func expect(_ codes: [Int], to what: String, final: Bool) async throws -> Reply {
            let reply = try await read()
            guard codes.contains(reply.code) else {
                throw SMTPFailure(
                    description: "The mail server answered \(what) with \(reply.code) \(reply.text.prefix(300))",
                    permanent: final && (500...599).contains(reply.code))
            }
            return reply
        }

        /// One reply: "250-first", "250-more", "250 last".
        mutating func read() async throws -> Reply {
            var lines: [String] = []
            while lines.count < SMTPClient.maxReplyLines {
                guard let line = try await replies.next() else {
                    throw SMTPFailure(description: "The mail server closed the connection.", permanent: false, serverAway: true)
                }
                consumed += 1
                let bytes = Array(line.utf8)
                guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)), (200...599).contains(code) else {
                    throw SMTPFailure(description: "The mail server sent something that is not SMTP: \(line.prefix(100))", permanent: false)
                }
                lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
                if bytes.count == 3 || bytes[3] == UInt8(ascii: " ") { return Reply(code: code, lines: lines) }
            }
            throw SMTPFailure(description: "The mail server's reply went on too long.", permanent: false)
        }

        func write(_ text: String) async throws {
            try await outbound.write(ByteBuffer(string: text))
        }

        /// RFC 5321 4.5.2: a line that starts with a dot gets one more, so it cannot end the message.
        static func dotStuffed(_ text: String) -> String {
            var out = text.hasPrefix(".") ? "." + text : text
            out = out.replacingOccurrences(of: "\r\n.", with: "\r\n..")
            return out.hasSuffix("\r\n") ? out : out + "\r\n"
        }
    }

    /// Splits the server's bytes into lines (CRLF, or a bare LF from a lax server), refusing any
    /// line longer than `limit` so a hostile server cannot grow the buffer without end.
    /// What the decoder has done, read by the session (on another thread) after STARTTLS.
    final class LineCount: Sendable {
        let box = NIOLockedValueBox((lines: 0, buffered: 0))
    }

    struct LineDecoder: ByteToMessageDecoder {
        typealias InboundOut = String
        let limit: Int
        let count: LineCount

        mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
            guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
                count.box.withLockedValue { $0.buffered = buffer.readableBytes }
                if buffer.readableBytes > limit {
                    throw SMTPFailure(description: "The mail server sent a line longer than \(limit) bytes.", permanent: false)
                }
                return .needMoreData
            }
            let length = newline - buffer.readerIndex
            guard length <= limit, var line = buffer.readString(length: length) else {
                throw SMTPFailure(description: "The mail server sent a line longer than \(limit) bytes.", permanent: false)
            }
            buffer.moveReaderIndex(forwardBy: 1)
            if line.hasSuffix("\r") { line.removeLast() }
            count.box.withLockedValue {
                $0.lines += 1
                $0.buffered = buffer.readableBytes
            }
            context.fireChannelRead(wrapInboundOut(line))
            return .continue
        }
    }
}
