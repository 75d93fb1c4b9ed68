import FieldhouseKit
import Foundation
import NIOCore

/// Splits a `multipart/form-data` body into parts as its bytes arrive. Body bytes come out as
/// slices of the buffers that went in (no copy), found by searching for the delimiter with
/// `memchr`, so a 20 MB photo costs a handful of calls rather than one per line break in it.
struct MultipartScanner {
    enum Event {
        /// A part begins; its headers, names lower-cased.
        case part([String: String])
        case body(ByteBuffer)
        case end
    }

    struct Malformed: Error {}

    private enum State { case preamble, afterDelimiter, headers, body, epilogue }

    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes that could not be decided yet (a delimiter cut in two, unfinished headers).
    private var carry = ByteBuffer()
    static let maxHeaderBytes = 16 * 1024

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // The first delimiter has no line break before it; pretend it does.
        carry.writeBytes([0x0D, 0x0A])
    }

    var isFinished: Bool { state == .epilogue }

    mutating func scan(_ chunk: ByteBuffer) throws -> [Event] {
        var buffer: ByteBuffer
        if carry.readableBytes == 0 {
            buffer = chunk
        } else {
            var chunk = chunk
            carry.writeBuffer(&chunk)
            buffer = carry
            carry = ByteBuffer()
        }
        var events: [Event] = []
        loop: while buffer.readableBytes > 0 {
            switch state {
            case .preamble, .body:
                switch find(delimiter, in: buffer) {
                case .found(let offset):
                    if state == .body {
                        if offset > 0 { events.append(.body(buffer.readSlice(length: offset)!)) }
                        events.append(.end)
                    } else {
                        buffer.moveReaderIndex(forwardBy: offset)
                    }
                    buffer.moveReaderIndex(forwardBy: delimiter.count)
                    state = .afterDelimiter
                case .partial(let offset):
                    // The end may be the start of a delimiter: keep it for the next chunk.
                    if state == .body, offset > 0 { events.append(.body(buffer.readSlice(length: offset)!)) }
                    if state == .preamble { buffer.moveReaderIndex(forwardBy: offset) }
                    break loop
                case .absent:
                    if state == .body { events.append(.body(buffer.readSlice(length: buffer.readableBytes)!)) }
                    buffer.moveReaderIndex(to: buffer.writerIndex)
                }
            case .afterDelimiter:
                guard buffer.readableBytes >= 2 else { break loop }
                let two = buffer.readBytes(length: 2)!
                if two == [0x2D, 0x2D] {
                    state = .epilogue
                } else if two == [0x0D, 0x0A] {
                    state = .headers
                } else {
                    throw Malformed()
                }
            case .headers:
                let view = buffer.readableBytesView
                guard let end = Self.range(of: [0x0D, 0x0A, 0x0D, 0x0A], in: view) else {
                    guard buffer.readableBytes <= Self.maxHeaderBytes else { throw Malformed() }
                    break loop
                }
                let text = String(decoding: view[view.startIndex..<end], as: UTF8.self)
                buffer.moveReaderIndex(forwardBy: end - view.startIndex + 4)
                var headers: [String: String] = [:]
                for line in text.split(separator: "\r\n") {
                    guard let colon = line.firstIndex(of: ":") else { throw Malformed() }
                    headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                events.append(.part(headers))
                state = .body
            case .epilogue:
                buffer.moveReaderIndex(to: buffer.writerIndex)
            }
        }
        if buffer.readableBytes > 0 {
            carry = ByteBuffer()
            carry.writeImmutableBuffer(buffer)
        }
        return events
    }

    private enum Match { case found(Int), partial(Int), absent }

    /// Where `needle` starts in `buffer` (offsets from its reader index), or where a prefix of it
    /// begins at the very end.
    private func find(_ needle: [UInt8], in buffer: ByteBuffer) -> Match {
        buffer.withUnsafeReadableBytes { raw -> Match in
            guard let base = raw.baseAddress else { return .absent }
            var offset = 0
            let count = raw.count
            while offset < count {
                guard let hit = memchr(base + offset, Int32(needle[0]), count - offset) else { return .absent }
                let at = base.distance(to: UnsafeRawPointer(hit))
                let available = min(needle.count, count - at)
                if memcmp(base + at, needle, available) == 0 {
                    return available == needle.count ? .found(at) : .partial(at)
                }
                offset = at + 1
            }
            return .absent
        }
    }

    private static func range(of needle: [UInt8], in view: ByteBufferView) -> ByteBufferView.Index? {
        guard view.count >= needle.count else { return nil }
        var index = view.startIndex
        while index <= view.endIndex - needle.count {
            if view[index] == needle[0], view[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
