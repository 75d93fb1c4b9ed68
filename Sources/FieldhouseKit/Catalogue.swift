import Foundation

/// The translations of one language, read from gettext `.po` files (what translators' tools
/// open): each entry's `msgid` is the English text as the code writes it, `msgstr` its
/// translation; a plural entry has `msgid_plural` and one `msgstr[n]` per form.
public struct Catalogue: Sendable {
    public struct PluralKey: Hashable, Sendable {
        public let one, other: String
        public init(one: String, other: String) {
            self.one = one
            self.other = other
        }
    }

    /// One entry as written, with where it was written (for the catalogue test's messages).
    public struct Entry: Sendable {
        public let key: String
        public let plural: String?
        public let translations: [String]
        public let place: String

        public init(key: String, plural: String?, translations: [String], place: String) {
            self.key = key
            self.plural = plural
            self.translations = translations
            self.place = place
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public private(set) var texts: [String: String] = [:]
    public private(set) var plurals: [PluralKey: [String]] = [:]
    public private(set) var entries: [Entry] = []

    public init(entries: [Entry]) {
        for entry in entries {
            self.entries.append(entry)
            if let plural = entry.plural {
                plurals[PluralKey(one: entry.key, other: plural)] = entry.translations
            } else if let text = entry.translations.first, !text.isEmpty {
                texts[entry.key] = text
            }
        }
    }

    /// Every `.po` file in `directory/<language>/`, by language; a language without a folder
    /// has an empty catalogue (English needs none: its texts are the keys).
    public static func load(directory: String) throws -> [Language: Catalogue] {
        var catalogues: [Language: Catalogue] = [:]
        for language in Language.allCases {
            let folder = directory + "/" + language.rawValue
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".po") }.sorted()
            var entries: [Entry] = []
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
                guard let text = String(data: data, encoding: .utf8) else { throw Failure(description: "\(file) is not UTF-8") }
                entries += try parse(text, file: language.rawValue + "/" + file)
            }
            catalogues[language] = Catalogue(entries: entries)
        }
        return catalogues
    }

    /// Reads a `.po` file: comments, blank lines between entries, strings continued on the next
    /// line. The header entry (empty msgid) is skipped.
    public static func parse(_ text: String, file: String) throws -> [Entry] {
        var entries: [Entry] = []
        var fields: [String: String] = [:]
        var last: String?
        var startLine = 0
        func flush() throws {
            defer {
                fields = [:]
                last = nil
            }
            guard !fields.isEmpty else { return }
            guard let key = fields["msgid"] else { throw Failure(description: "\(file):\(startLine): an entry without msgid") }
            guard !key.isEmpty else { return }
            if let plural = fields["msgid_plural"] {
                let forms = (0..<2).map { fields["msgstr[\($0)]"] ?? "" }
                entries.append(Entry(key: key, plural: plural, translations: forms, place: "\(file):\(startLine)"))
            } else {
                entries.append(Entry(key: key, plural: nil, translations: [fields["msgstr"] ?? ""], place: "\(file):\(startLine)"))
            }
        }
        // Files saved on Windows (CRLF, a byte-order mark) read the same.
        var text = text.replacingOccurrences(of: "\r\n", with: "\n")
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                try flush()
                continue
            }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("\"") {
                guard let field = last else { throw Failure(description: "\(file):\(index + 1): a string outside an entry") }
                fields[field, default: ""] += try unquote(line, file: file, line: index + 1)
                continue
            }
            guard let space = line.firstIndex(of: " ") else { throw Failure(description: "\(file):\(index + 1): cannot read \(line)") }
            let keyword = String(line[..<space])
            guard ["msgid", "msgid_plural", "msgstr", "msgstr[0]", "msgstr[1]"].contains(keyword) else {
                throw Failure(description: "\(file):\(index + 1): unknown keyword \(keyword)")
            }
            if keyword == "msgid", !fields.isEmpty { try flush() }
            if fields.isEmpty { startLine = index + 1 }
            guard fields[keyword] == nil else { throw Failure(description: "\(file):\(index + 1): \(keyword) twice in one entry") }
            fields[keyword] = try unquote(line[line.index(after: space)...].trimmingCharacters(in: .whitespaces), file: file, line: index + 1)
            last = keyword
        }
        try flush()
        return entries
    }

    private static func unquote(_ quoted: String, file: String, line: Int) throws -> String {
        guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else {
            throw Failure(description: "\(file):\(line): a string must be in double quotes")
        }
        var result = ""
        var escaped = false
        for character in quoted.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                throw Failure(description: "\(file):\(line): a bare \" inside a string (write \\\")")
            } else {
                result.append(character)
            }
        }
        guard !escaped else { throw Failure(description: "\(file):\(line): a string ends in a lone backslash") }
        return result
    }

    /// The `{name}` placeholders of a text, in order of first appearance.
    public static func placeholders(_ text: String) -> [Substring] {
        // Over UTF-8 bytes: the braces and names are ASCII, and walking Characters cost a few per
        // cent of a page that shows many translated texts.
        var names: [Substring] = []
        let utf8 = text.utf8
        var index = utf8.startIndex
        while let open = utf8[index...].firstIndex(of: UInt8(ascii: "{")), let close = utf8[open...].firstIndex(of: UInt8(ascii: "}")) {
            let bytes = utf8[utf8.index(after: open)..<close]
            if !bytes.isEmpty, bytes.allSatisfy(isNameByte) {
                let name = Substring(bytes)
                if !names.contains(name) { names.append(name) }
            }
            index = utf8.index(after: close)
        }
        return names
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// `text` with each `{name}` replaced by the value given for it: `names[i]` takes `values[i]`
    /// and `{count}` the count. A placeholder with no value stays as written.
    static func fill(_ text: String, names: [Substring], values: [String], count: String?) -> String {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        var index = utf8.startIndex
        while let open = utf8[index...].firstIndex(of: UInt8(ascii: "{")), let close = utf8[open...].firstIndex(of: UInt8(ascii: "}")) {
            result += Substring(utf8[index..<open])
            let name = Substring(utf8[utf8.index(after: open)..<close])
            if name == "count", let count {
                result += count
            } else if let position = names.firstIndex(of: name), position < values.count {
                result += values[position]
            } else {
                result += Substring(utf8[open...close])
            }
            index = utf8.index(after: close)
        }
        result += Substring(utf8[index...])
        return result
    }
}

/// The catalogues the process reads, installed once at start (`configure`).
public enum Words {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var catalogues: [Language: Catalogue] = [:]

    public static func install(_ loaded: [Language: Catalogue]) {
        lock.withLock { catalogues = loaded }
    }

    public static func catalogue(_ language: Language) -> Catalogue? {
        lock.withLock { catalogues[language] }
    }

    static func text(_ english: String, in language: Language) -> String {
        guard language != .en else { return english }
        return lock.withLock { catalogues[language]?.texts[english] } ?? english
    }

    static func plural(_ one: String, _ other: String, count: Int, in language: Language) -> String {
        let form = language.pluralForm(count)
        if language != .en, let forms = lock.withLock({ catalogues[language]?.plurals[Catalogue.PluralKey(one: one, other: other)] }),
            forms.indices.contains(form), !forms[form].isEmpty
        {
            return forms[form]
        }
        return form == 0 ? one : other
    }
}

/// A text for people, in the current language (`Language.current`). The English text is the
/// key; `{name}` placeholders take `values` in the order they first appear in it.
/// `t("{name} joined {team}", person.displayName, team.name)`.
public func t(_ english: String, _ values: Any...) -> String {
    Catalogue.translate(english, values.map { String(describing: $0) })
}

/// The form of a counted text for `count`: `tn("{count} workout", "{count} workouts", n)`.
/// `{count}` is the count; other placeholders take `values` in the order they first appear in
/// the plural text.
public func tn(_ one: String, _ other: String, _ count: Int, _ values: Any...) -> String {
    Catalogue.translatePlural(one, other, count, values.map { String(describing: $0) })
}

extension Catalogue {
    /// `t` with its values already written out (for the template tags).
    public static func translate(_ english: String, _ values: [String]) -> String {
        let text = Words.text(english, in: Language.current)
        guard !values.isEmpty else { return text }
        return fill(text, names: placeholders(english), values: values, count: nil)
    }

    /// `tn` with its values already written out.
    public static func translatePlural(_ one: String, _ other: String, _ count: Int, _ values: [String]) -> String {
        let text = Words.plural(one, other, count: count, in: Language.current)
        return fill(text, names: placeholders(other).filter { $0 != "count" }, values: values, count: String(count))
    }
}
