/// A JSON object written to sit in a single-quoted HTML attribute (`data-chart='…'`,
/// `data-map='…'`), for the script layers over the server's charts and maps: strings are escaped
/// for JSON and for the attribute at once (`&`, `<`, `>` and `'` as character references, which the
/// browser turns back before the script reads the attribute), so nothing is escaped twice.
/// Written by hand because it is on every workout page's first view, where Foundation's encoder
/// and escaping character by character were a measurable part of the time.
struct AttributeJSON {
    private var fields: [String] = []

    mutating func add(_ key: String, _ json: String) { fields.append("\"\(key)\":\(json)") }
    mutating func add(_ key: String, numbers: [Double?]) {
        add(key, "[" + numbers.map { $0.map(Self.number) ?? "null" }.joined(separator: ",") + "]")
    }
    mutating func add(_ key: String, strings: [String]) { add(key, "[" + strings.map(Self.string).joined(separator: ",") + "]") }

    var json: String { "{" + fields.joined(separator: ",") + "}" }

    /// Whole numbers without a fraction, others to a tenth: what a drawing itself resolves.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if let whole = Int(exactly: value.rounded()), Swift.abs(value - value.rounded()) < 0.05 { return String(whole) }
        return value.tenths
    }

    /// A JSON string that is also safe inside a single-quoted HTML attribute; control characters
    /// become spaces.
    static func string(_ text: String) -> String {
        var out: [UInt8] = [0x22]
        out.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += [0x5C, 0x22] // \"
            case 0x5C: out += [0x5C, 0x5C] // \\
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x27: out += Array("&#39;".utf8)
            case ..<0x20: out.append(0x20)
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}
