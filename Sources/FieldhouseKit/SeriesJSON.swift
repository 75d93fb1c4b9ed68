/// A JSON reader for one shape only, the one devices post samples in: an object whose members are
/// arrays of flat objects of numbers, strings, booleans and nulls.
/// `{"heart_rate": [{"t": 1763719200000, "bpm": 72}, …], …}`. A general decoder spends most of a
/// 3,600-sample request building containers; this reads the bytes once. Members of any other
/// shape are refused with where and why; members that are not arrays of objects are kept out.
public enum SeriesJSON {
    public enum Value: Equatable, Sendable {
        case number(Double)
        case string(String)
        case bool(Bool)
        case null
    }

    /// One element of a series: its members in order.
    public typealias Item = [(key: String, value: Value)]

    public struct Failure: Error, Equatable, Sendable {
        /// e.g. "heart_rate[3] must be an object", "unexpected end of the body at byte 120".
        public let message: String
    }

    public static func parse(_ bytes: [UInt8]) throws -> [String: [Item]] {
        var reader = Reader(bytes: bytes)
        return try reader.document()
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func fail(_ what: String) -> Failure {
            index >= bytes.count
                ? Failure(message: t("The body ends too early ({problem}).", what))
                : Failure(message: t("The body is not valid JSON at byte {byte} ({problem}).", index, what))
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        /// `what` is only worded when the byte is missing: this runs for every member of a long body.
        mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { throw fail(what()) }
            index += 1
        }

        mutating func peek() -> UInt8? {
            skipSpace()
            return index < bytes.count ? bytes[index] : nil
        }

        mutating func document() throws -> [String: [Item]] {
            guard peek() == UInt8(ascii: "{") else { throw Failure(message: t("The body must be a JSON object.")) }
            index += 1
            var series: [String: [Item]] = [:]
            if peek() == UInt8(ascii: "}") {
                index += 1
            } else {
                while true {
                    let key = try string()
                    try expect(UInt8(ascii: ":"), t("expected “:”"))
                    if peek() == UInt8(ascii: "[") {
                        series[key] = try items(of: key)
                    } else if peek() == UInt8(ascii: "n") {
                        try literal("null")
                    } else {
                        throw Failure(message: t("{key} must be an array.", key))
                    }
                    guard let next = peek() else { throw fail(t("expected “,” or “}”")) }
                    index += 1
                    if next == UInt8(ascii: "}") { break }
                    guard next == UInt8(ascii: ",") else { index -= 1; throw fail(t("expected “,” or “}”")) }
                }
            }
            guard peek() == nil else { throw fail(t("unexpected text after the object")) }
            return series
        }

        mutating func items(of key: String) throws -> [Item] {
            index += 1 // [
            var items: [Item] = []
            if peek() == UInt8(ascii: "]") { index += 1; return items }
            while true {
                guard peek() == UInt8(ascii: "{") else {
                    if index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                        throw Failure(message: t("{key}[{index}] must be an object.", key, items.count))
                    }
                    throw fail(t("expected an object"))
                }
                index += 1
                var item: Item = []
                if peek() == UInt8(ascii: "}") {
                    index += 1
                } else {
                    while true {
                        let name = try string()
                        try expect(UInt8(ascii: ":"), t("expected “:”"))
                        item.append((name, try value(path: "\(key)[\(items.count)].\(name)")))
                        guard let next = peek() else { throw fail(t("expected “,” or “}”")) }
                        index += 1
                        if next == UInt8(ascii: "}") { break }
                        guard next == UInt8(ascii: ",") else { index -= 1; throw fail(t("expected “,” or “}”")) }
                    }
                }
                items.append(item)
                guard let next = peek() else { throw fail(t("expected “,” or “]”")) }
                index += 1
                if next == UInt8(ascii: "]") { return items }
                guard next == UInt8(ascii: ",") else { index -= 1; throw fail(t("expected “,” or “]”")) }
            }
        }

        mutating func value(path: @autoclosure () -> String) throws -> Value {
            guard let first = peek() else { throw fail(t("expected a value")) }
            switch first {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            case UInt8(ascii: "{"), UInt8(ascii: "["): throw Failure(message: t("{path} must be a number or a string, not a list or an object.", path()))
            default: throw fail(t("expected a value"))
            }
        }

        mutating func literal(_ word: String) throws {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
                throw fail(t("expected {word}", word))
            }
            index += expected.count
        }

        /// Integers and plain decimals by arithmetic; anything with an exponent through `Double(_:)`.
        mutating func number() throws -> Double {
            let start = index
            var negative = false
            if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
            var integer: UInt64 = 0
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                integer = integer &* 10 &+ UInt64(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw fail(t("expected a number")) }
            var value = Double(integer)
            var simple = digits <= 15
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var fraction: UInt64 = 0
                var scale = 1.0
                var fractionDigits = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    if fractionDigits < 15 {
                        fraction = fraction * 10 + UInt64(bytes[index] - 0x30)
                        scale *= 10
                    }
                    fractionDigits += 1
                    index += 1
                }
                guard fractionDigits > 0 else { throw fail(t("expected digits after “.”")) }
                if digits + fractionDigits > 15 { simple = false }
                value += Double(fraction) / scale
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                simple = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let exponentStart = index
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
                guard index > exponentStart else { throw fail(t("expected an exponent")) }
            }
            if !simple {
                // Exactly rounded by the standard library when the fast path could lose precision.
                guard let exact = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw fail(t("expected a number")) }
                return exact
            }
            return negative ? -value : value
        }

        mutating func string() throws -> String {
            guard peek() == UInt8(ascii: "\"") else { throw fail(t("expected a string")) }
            index += 1
            let start = index
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let raw = bytes[start..<index]
                    index += 1
                    return escaped ? try unescape(raw) : String(decoding: raw, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { escaped = true; index += 1 } else if byte < 0x20 { throw fail(t("control character in a string")) }
                index += 1
            }
            throw fail(t("unterminated string"))
        }

        mutating func unescape(_ raw: ArraySlice<UInt8>) throws -> String {
            var out: [UInt8] = []
            var i = raw.startIndex
            while i < raw.endIndex {
                let byte = raw[i]
                guard byte == UInt8(ascii: "\\"), i + 1 < raw.endIndex else { out.append(byte); i += 1; continue }
                let next = raw[i + 1]
                i += 2
                switch next {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard i + 4 <= raw.endIndex, let code = UInt32(String(decoding: raw[i..<i + 4], as: UTF8.self), radix: 16) else {
                        throw fail(t("bad \\u escape"))
                    }
                    i += 4
                    // Surrogate pairs are not needed for sample fields; a lone one becomes U+FFFD.
                    out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                default: out.append(next)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
