#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Receives what `XMLScanner` finds, in document order. Names are local names: the namespace
/// prefix is dropped (`gpxtpx:hr` arrives as `hr`), which is all GPX and TCX readers need.
public protocol XMLHandler {
    mutating func start(_ name: String, attributes: [XMLAttribute]) throws
    /// `text` is the character data since the element's last tag (its start tag, or the end tag of
    /// its last child): entities decoded, pieces (around comments, CDATA) joined, without leading
    /// and trailing whitespace; empty when there is none.
    mutating func end(_ name: String, text: XMLText) throws
}

public struct XMLAttribute {
    public let name: String
    public let value: XMLText
}

/// Text or an attribute value as the scanner read it: the document's own bytes when they needed no
/// decoding, else decoded ones. It is only valid while the handler call that receives it runs (it
/// may point into the document); keep `string`, or a number read from it, instead.
///
/// Numbers and times are read straight from the bytes: a one-hour GPX track has 18,000 of them, and
/// making a `String` of each first was a third of reading the file.
public struct XMLText {
    private enum Storage {
        case slice(UnsafeBufferPointer<UInt8>)
        case owned([UInt8])
    }

    private let storage: Storage

    static var empty: XMLText { XMLText(storage: .owned([])) }

    init(slice: UnsafeBufferPointer<UInt8>) { storage = .slice(slice) }
    init(owned: [UInt8]) { storage = .owned(owned) }
    private init(storage: Storage) { self.storage = storage }

    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch storage {
        case .slice(let bytes): try body(bytes)
        case .owned(let bytes): try bytes.withUnsafeBufferPointer(body)
        }
    }

    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    public var isEmpty: Bool { withBytes { $0.isEmpty } }

    /// A finite number, read as `ActivityFile.number` reads its text.
    public var number: Double? { withBytes(Self.number) }

    /// The common case (an optional minus, digits, a point and digits, 15 digits at most) is read
    /// here: such a decimal and its power of ten are both exact doubles, so one division rounds
    /// correctly, exactly as the general parser would. Anything else goes to the general parser.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty else { return nil }
        var index = 0
        let negative = bytes.count > 0 && bytes[0] == 0x2D
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0, whole = 0, fraction = 0
        var point = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                guard digits < 15 else { return slowNumber(bytes) }
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
                digits += 1
                if point { fraction += 1 } else { whole += 1 }
            } else if byte == 0x2E && !point {
                point = true
            } else {
                return slowNumber(bytes)
            }
            index += 1
        }
        guard whole > 0, !point || fraction > 0 else { return slowNumber(bytes) }
        let value = Double(mantissa) / powersOfTen[fraction]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    private static func slowNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        ActivityFile.number(String(decoding: bytes, as: UTF8.self))
    }
}

/// A small, strict, single-pass XML reader for activity files. It reads elements, attributes, text,
/// CDATA, comments and processing instructions, and refuses what is not well-formed, so a file cut
/// off in the middle is reported as such instead of being imported half. It does not read DTDs or
/// expand external entities (nothing can make it fetch or include anything), and it is several times
/// faster than a general-purpose parser on the 1 Hz tracks devices write.
public enum XMLScanner {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The document stopped inside an element: it was cut off.
        case truncated(openElement: String)
        case malformed(line: Int, reason: String)
        case empty

        public var description: String {
            switch self {
            case .truncated(let element): t("the file ends before its <{element}> element is closed; it looks cut off", element)
            case .malformed(let line, let reason): t("the XML is broken at line {line}: {reason}", line, reason)
            case .empty: t("the file holds no XML")
            }
        }
    }

    /// The deepest nesting read.
    public static let maxDepth = 64

    public static func scan<H: XMLHandler>(_ bytes: [UInt8], into handler: inout H) throws {
        try bytes.withUnsafeBufferPointer { try scan($0, into: &handler) }
    }

    public static func scan<H: XMLHandler>(_ buffer: UnsafeBufferPointer<UInt8>, into handler: inout H) throws {
        var reader = Reader(bytes: buffer)
        // Open elements as byte ranges of their names, with their local names: an end tag is matched
        // by comparing bytes, and names become Strings once per distinct name (`names`), not once per tag.
        var open: [(range: Range<Int>, local: String)] = []
        var names = NameTable()
        func text(_ range: Range<Int>?) -> String? {
            range.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }
        }
        // The element's text since its last tag: one piece of the document's own bytes, or, when it
        // came in pieces or with entities, the pieces decoded and joined in `joined`.
        var piece: Range<Int>?
        var joined: [UInt8] = []
        var isJoined = false
        func add(_ range: Range<Int>, decode: Bool) throws {
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            if piece == nil && !isJoined && !(decode && slice.contains(0x26)) {
                piece = range
                return
            }
            if let first = piece {
                joined.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[first]))
                piece = nil
            }
            isJoined = true
            if decode { try decodeEntities(slice, reader, into: &joined) } else { joined.append(contentsOf: slice) }
        }
        func pending() -> XMLText {
            if let piece { return XMLText(slice: UnsafeBufferPointer(rebasing: buffer[piece])) }
            return isJoined ? XMLText(owned: joined) : .empty
        }
        func clear() {
            piece = nil
            if isJoined {
                joined.removeAll(keepingCapacity: true)
                isJoined = false
            }
        }
        var attributes: [XMLAttribute] = []
        var sawRoot = false
        // A UTF-8 byte-order mark is allowed before the declaration.
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { reader.index = 3 }
        var afterCDATA = false
        while reader.index < buffer.count {
            let textStart = reader.index
            reader.skip(until: 0x3C) // <
            if reader.index > textStart {
                // Trimmed at element edges only: next to CDATA the spaces are part of the text.
                var from = textStart, to = reader.index
                if !afterCDATA { while from < to && isSpace(buffer[from]) { from += 1 } }
                if !reader.starts(with: "<![CDATA[") { while to > from && isSpace(buffer[to - 1]) { to -= 1 } }
                if from < to {
                    guard !open.isEmpty else { throw reader.failure(t("text outside the document element")) }
                    try add(from..<to, decode: true)
                }
            }
            guard reader.index < buffer.count else { break }
            afterCDATA = false
            guard reader.index + 1 < buffer.count else {
                reader.index += 1
                throw truncatedOrMalformed(reader, t("a tag without a name"), text(open.last?.range))
            }
            // At "<". A start tag (by far the most common) is known by its second byte.
            let second = buffer[reader.index + 1]
            if second != 0x3F && second != 0x21 && second != 0x2F {
                reader.index += 1
                guard let range = reader.name() else { throw truncatedOrMalformed(reader, t("a tag without a name"), text(open.last?.range)) }
                let name = names.full(buffer, range)
                guard open.isEmpty == false || !sawRoot else { throw reader.failure(t("a second document element <{name}>", name)) }
                attributes.removeAll(keepingCapacity: true)
                var selfClosing = false
                while true {
                    reader.skipWhitespace()
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last?.range) ?? name) }
                    let byte = buffer[reader.index]
                    if byte == 0x3E { reader.index += 1; break }
                    if byte == 0x2F {
                        guard reader.index + 1 < buffer.count else { throw Failure.truncated(openElement: text(open.last?.range) ?? name) }
                        guard buffer[reader.index + 1] == 0x3E else { throw reader.failure(t("a stray / in <{name}>", name)) }
                        reader.index += 2
                        selfClosing = true
                        break
                    }
                    guard let attributeRange = reader.name() else { throw reader.failure(t("a broken attribute in <{name}>", name)) }
                    reader.skipWhitespace()
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last?.range) ?? name) }
                    guard buffer[reader.index] == 0x3D else {
                        throw reader.failure(t("attribute {attribute} of <{name}> has no value", names.full(buffer, attributeRange), name))
                    }
                    reader.index += 1
                    reader.skipWhitespace()
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last?.range) ?? name) }
                    let quote = buffer[reader.index]
                    guard quote == 0x22 || quote == 0x27 else {
                        throw reader.failure(t("attribute {attribute} of <{name}> is not quoted", names.full(buffer, attributeRange), name))
                    }
                    reader.index += 1
                    let start = reader.index
                    reader.skip(until: quote)
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last?.range) ?? name) }
                    let slice = UnsafeBufferPointer(rebasing: buffer[start..<reader.index])
                    let value: XMLText
                    if slice.contains(0x26) {
                        var decoded: [UInt8] = []
                        try decodeEntities(slice, reader, into: &decoded)
                        value = XMLText(owned: decoded)
                    } else {
                        value = XMLText(slice: slice)
                    }
                    reader.index += 1
                    attributes.append(XMLAttribute(name: names.local(buffer, attributeRange), value: value))
                }
                sawRoot = true
                let localName = names.local(buffer, range)
                clear()
                try handler.start(localName, attributes: attributes)
                if selfClosing {
                    try handler.end(localName, text: .empty)
                } else {
                    // Activity files nest a handful of levels; thousands are only there to make handlers work hard.
                    guard open.count < maxDepth else { throw reader.failure(t("elements are nested more than {depth} deep", maxDepth)) }
                    open.append((range, localName))
                }
            } else if reader.starts(with: "<?") {
                guard reader.jump(past: "?>") else { throw reader.failure(t("an unfinished processing instruction")) }
            } else if reader.starts(with: "<!--") {
                guard reader.jump(past: "-->") else { throw truncatedOrMalformed(reader, t("an unfinished comment"), text(open.last?.range)) }
            } else if reader.starts(with: "<![CDATA[") {
                reader.index += 9
                let start = reader.index
                guard reader.jump(past: "]]>") else { throw truncatedOrMalformed(reader, t("an unfinished CDATA section"), text(open.last?.range)) }
                guard !open.isEmpty else { throw reader.failure(t("CDATA outside the document element")) }
                let range = start..<(reader.index - 3)
                if !isWhitespace(UnsafeBufferPointer(rebasing: buffer[range])) { try add(range, decode: false) }
                afterCDATA = true
            } else if reader.starts(with: "<!") {
                // A DOCTYPE: skipped whole (internal subsets included), never interpreted.
                guard !sawRoot else { throw reader.failure(t("a declaration inside the document")) }
                var depth = 0
                while reader.index < buffer.count {
                    let byte = buffer[reader.index]
                    reader.index += 1
                    if byte == 0x5B { depth += 1 } else if byte == 0x5D { depth -= 1 } else if byte == 0x3E && depth <= 0 { break }
                }
            } else {
                // "</"
                reader.index += 2
                guard let range = reader.name() else { throw truncatedOrMalformed(reader, t("an end tag without a name"), text(open.last?.range)) }
                reader.skipWhitespace()
                guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last?.range ?? range)!) }
                guard buffer[reader.index] == 0x3E else { throw reader.failure(t("a broken end tag </{name}", text(range)!)) }
                reader.index += 1
                guard let last = open.popLast(), same(buffer, last.range, range) else {
                    let name = text(range)!
                    throw reader.failure(text(open.last?.range).map { t("</{name}> closes <{open}>", name, $0) } ?? t("</{name}> closes nothing", name))
                }
                try handler.end(last.local, text: pending())
                clear()
            }
        }
        if let unclosed = text(open.last?.range) { throw Failure.truncated(openElement: local(unclosed)) }
        guard sawRoot else { throw Failure.empty }
    }

    private static func truncatedOrMalformed(_ reader: Reader, _ reason: String, _ lastOpen: String?) -> Failure {
        if reader.index >= reader.bytes.count, let lastOpen { return .truncated(openElement: local(lastOpen)) }
        return reader.failure(reason)
    }

    private static func same(_ buffer: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where buffer[a.lowerBound + offset] != buffer[b.lowerBound + offset] { return false }
        return true
    }

    /// The names met so far, each made into a String (and its local part) once. Activity files use a
    /// dozen names thousands of times; a file of endless distinct names stops being remembered after
    /// `limit` and is read at the old speed.
    private struct NameTable {
        private var entries: [(bytes: [UInt8], full: String, local: String)] = []
        private static let limit = 64

        mutating func full(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String { entry(buffer, range).full }
        mutating func local(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String { entry(buffer, range).local }

        private mutating func entry(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (full: String, local: String) {
            let name = UnsafeBufferPointer(rebasing: buffer[range])
            for entry in entries where entry.bytes.count == name.count {
                let equal = entry.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0 }
                if equal { return (entry.full, entry.local) }
            }
            let full = String(decoding: name, as: UTF8.self)
            let made = (full: full, local: XMLScanner.local(full))
            if entries.count < Self.limit { entries.append((Array(name), made.full, made.local)) }
            return made
        }
    }

    private static func local(_ name: String) -> String {
        guard let colon = name.utf8.lastIndex(of: 0x3A) else { return name }
        return String(name[name.index(after: colon)...])
    }

    private static func isWhitespace(_ slice: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in slice where !isSpace(byte) { return false }
        return true
    }

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Appends `slice` with the five predefined entities and character references replaced.
    private static func decodeEntities(_ slice: UnsafeBufferPointer<UInt8>, _ reader: Reader, into out: inout [UInt8]) throws {
        out.reserveCapacity(out.count + slice.count)
        var i = 0
        while i < slice.count {
            let byte = slice[i]
            guard byte == 0x26 else { out.append(byte); i += 1; continue }
            guard let semicolon = slice[i...].firstIndex(of: 0x3B), semicolon - i <= 12 else {
                throw reader.failure(t("an & that starts no entity"))
            }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: slice[(i + 1)..<semicolon]), as: UTF8.self)
            switch entity {
            case "lt": out.append(0x3C)
            case "gt": out.append(0x3E)
            case "amp": out.append(0x26)
            case "quot": out.append(0x22)
            case "apos": out.append(0x27)
            default:
                let scalar: UInt32?
                if entity.hasPrefix("#x") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10)
                } else {
                    scalar = nil
                }
                guard let scalar, let character = Unicode.Scalar(scalar) else { throw reader.failure(t("an unknown entity &{entity};", entity)) }
                out.append(contentsOf: Array(String(Character(character)).utf8))
            }
            i = semicolon + 1
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func skip(until byte: UInt8) {
            while index < bytes.count && bytes[index] != byte { index += 1 }
        }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }

        func starts(with prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let start = prefix.utf8Start
            for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
            return true
        }

        /// Moves just past the next `marker`; false (at the end) when there is none.
        mutating func jump(past marker: StaticString) -> Bool {
            let first = marker.utf8Start[0]
            while index < bytes.count {
                if bytes[index] == first && starts(with: marker) {
                    index += marker.utf8CodeUnitCount
                    return true
                }
                index += 1
            }
            return false
        }

        /// An element or attribute name: everything up to whitespace, `=`, `/` or `>`.
        mutating func name() -> Range<Int>? {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x3D || byte == 0x2F || byte == 0x3E || byte == 0x3C { break }
                index += 1
            }
            return index > start ? start..<index : nil
        }

        func failure(_ reason: String) -> Failure {
            var line = 1
            for i in 0..<min(index, bytes.count) where bytes[i] == 0x0A { line += 1 }
            return .malformed(line: line, reason: reason)
        }
    }
}
