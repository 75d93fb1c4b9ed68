/// Receives what `XMLScanner` finds, in document order. Names are local names: the namespace
/// prefix is dropped (`gpxtpx:hr` arrives as `hr`), which is all GPX and TCX readers need.
public protocol XMLHandler {
    mutating func start(_ name: String, attributes: [(name: String, value: String)]) throws
    mutating func end(_ name: String) throws
    /// Character data of an element, entities decoded, without leading and trailing whitespace;
    /// whitespace-only runs are not reported.
    mutating func text(_ text: String) throws
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
        // Open elements as byte ranges of their names: an end tag is matched by comparing bytes, and
        // names become Strings once per distinct name (`names`), not once per tag.
        var open: [Range<Int>] = []
        var names = NameTable()
        func text(_ range: Range<Int>?) -> String? {
            range.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }
        }
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
                    try handler.text(try decode(UnsafeBufferPointer(rebasing: buffer[from..<to]), reader))
                }
            }
            guard reader.index < buffer.count else { break }
            afterCDATA = false
            // At "<".
            if reader.starts(with: "<?") {
                guard reader.jump(past: "?>") else { throw reader.failure(t("an unfinished processing instruction")) }
            } else if reader.starts(with: "<!--") {
                guard reader.jump(past: "-->") else { throw truncatedOrMalformed(reader, t("an unfinished comment"), text(open.last)) }
            } else if reader.starts(with: "<![CDATA[") {
                reader.index += 9
                let start = reader.index
                guard reader.jump(past: "]]>") else { throw truncatedOrMalformed(reader, t("an unfinished CDATA section"), text(open.last)) }
                guard !open.isEmpty else { throw reader.failure(t("CDATA outside the document element")) }
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<(reader.index - 3)])
                if !isWhitespace(slice) { try handler.text(String(decoding: slice, as: UTF8.self)) }
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
            } else if reader.starts(with: "</") {
                reader.index += 2
                guard let range = reader.name() else { throw truncatedOrMalformed(reader, t("an end tag without a name"), text(open.last)) }
                reader.skipWhitespace()
                guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last ?? range)!) }
                guard buffer[reader.index] == 0x3E else { throw reader.failure(t("a broken end tag </{name}", text(range)!)) }
                reader.index += 1
                guard let last = open.popLast(), same(buffer, last, range) else {
                    let name = text(range)!
                    throw reader.failure(text(open.last).map { t("</{name}> closes <{open}>", name, $0) } ?? t("</{name}> closes nothing", name))
                }
                try handler.end(names.local(buffer, range))
            } else {
                reader.index += 1
                guard let range = reader.name() else { throw truncatedOrMalformed(reader, t("a tag without a name"), text(open.last)) }
                let name = names.full(buffer, range)
                guard open.isEmpty == false || !sawRoot else { throw reader.failure(t("a second document element <{name}>", name)) }
                var attributes: [(name: String, value: String)] = []
                var selfClosing = false
                while true {
                    reader.skipWhitespace()
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last) ?? name) }
                    let byte = buffer[reader.index]
                    if byte == 0x3E { reader.index += 1; break }
                    if byte == 0x2F {
                        guard reader.index + 1 < buffer.count else { throw Failure.truncated(openElement: text(open.last) ?? name) }
                        guard buffer[reader.index + 1] == 0x3E else { throw reader.failure(t("a stray / in <{name}>", name)) }
                        reader.index += 2
                        selfClosing = true
                        break
                    }
                    guard let attributeRange = reader.name() else { throw reader.failure(t("a broken attribute in <{name}>", name)) }
                    let attribute = names.full(buffer, attributeRange)
                    reader.skipWhitespace()
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last) ?? name) }
                    guard buffer[reader.index] == 0x3D else { throw reader.failure(t("attribute {attribute} of <{name}> has no value", attribute, name)) }
                    reader.index += 1
                    reader.skipWhitespace()
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last) ?? name) }
                    let quote = buffer[reader.index]
                    guard quote == 0x22 || quote == 0x27 else { throw reader.failure(t("attribute {attribute} of <{name}> is not quoted", attribute, name)) }
                    reader.index += 1
                    let start = reader.index
                    reader.skip(until: quote)
                    guard reader.index < buffer.count else { throw Failure.truncated(openElement: text(open.last) ?? name) }
                    let value = try decode(UnsafeBufferPointer(rebasing: buffer[start..<reader.index]), reader)
                    reader.index += 1
                    attributes.append((names.local(buffer, attributeRange), value))
                }
                sawRoot = true
                let localName = names.local(buffer, range)
                try handler.start(localName, attributes: attributes)
                if selfClosing {
                    try handler.end(localName)
                } else {
                    // Activity files nest a handful of levels; thousands are only there to make handlers work hard.
                    guard open.count < maxDepth else { throw reader.failure(t("elements are nested more than {depth} deep", maxDepth)) }
                    open.append(range)
                }
            }
        }
        if let unclosed = text(open.last) { throw Failure.truncated(openElement: local(unclosed)) }
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
            for entry in entries where entry.bytes.count == name.count && entry.bytes.elementsEqual(name) { return (entry.full, entry.local) }
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

    /// Text with the five predefined entities and character references replaced.
    private static func decode(_ slice: UnsafeBufferPointer<UInt8>, _ reader: Reader) throws -> String {
        guard slice.contains(0x26) else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
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
        return String(decoding: out, as: UTF8.self)
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
