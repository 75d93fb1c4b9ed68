import Foundation

/// The languages Fieldhouse speaks. English is the source: its texts are the catalogue's keys.
public enum Language: String, CaseIterable, Sendable, Codable {
    case en
    case ptPT = "pt-PT"

    /// The language of whatever is being made now: a request's page, a notification for one
    /// recipient, a job's e-mail. `t`, `tn` and the shared formatting read it, so code that writes
    /// words needs no language parameter. Set by the language middleware for every request and by
    /// whatever writes for a particular person (`Language.$current.withValue(...)`).
    @TaskLocal public static var current: Language = .en

    /// The language's own name, as its speakers write it (for the switch and the settings).
    public var name: String {
        switch self {
        case .en: "English"
        case .ptPT: "Português"
        }
    }

    /// A BCP 47 tag as a browser or a setting writes it ("pt", "pt-PT", "pt_BR", "en-GB").
    /// Portuguese of any region reads the European Portuguese catalogue: it is the one we have.
    public init?(tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() }
        switch primary {
        case "en": self = .en
        case "pt": self = .ptPT
        default: return nil
        }
    }

    /// The most wanted language we speak from an `Accept-Language` header
    /// ("pt-PT,pt;q=0.9,en;q=0.8"), or nil. Items with q=0 are refused, per RFC 9110.
    public static func preferred(acceptLanguage header: String) -> Language? {
        var best: (language: Language, quality: Double, position: Int)?
        // Browsers send a few dozen bytes; anything past 256 is not a real preference.
        let wanted = header.utf8.count > 256 ? String(decoding: header.utf8.prefix(256), as: UTF8.self) : header
        for (position, item) in wanted.split(separator: ",").prefix(32).enumerated() {
            let parts = item.split(separator: ";", maxSplits: 4)
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces), let language = Language(tag: tag) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == "q", let q = Double(pair[1]), q.isFinite { quality = min(max(q, 0), 1) }
            }
            guard quality > 0 else { continue }
            if best == nil || quality > best!.quality { best = (language, quality, position) }
        }
        return best?.language
    }

    /// Which plural form a count takes: 0 for "one", 1 for "other". Both languages split the same
    /// way for whole numbers (European Portuguese, unlike Brazilian, says "0 treinos").
    func pluralForm(_ count: Int) -> Int { count == 1 ? 0 : 1 }
}
