import Foundation

/// URL names such as "riverside-futsal-club" made from what people type.
public enum Slug {
    /// Lower-case ASCII letters and digits joined by single dashes; accents are folded
    /// ("Sørensen Ü" → "sorensen-u"). Empty when nothing usable is left.
    public static func make(_ text: String, maxLength: Int = 60) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .replacingOccurrences(of: "ø", with: "o").replacingOccurrences(of: "æ", with: "ae")
            .replacingOccurrences(of: "ß", with: "ss").replacingOccurrences(of: "&", with: " and ")
            .lowercased()
        var slug = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                if pendingDash, !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        if slug.count > maxLength {
            slug = String(slug.prefix(maxLength))
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug
    }

    /// `base`, or `base-2`, `base-3`, … the first that is not taken or reserved.
    public static func unique(_ base: String, taken: Set<String>, reserved: Set<String> = []) -> String {
        if !taken.contains(base), !reserved.contains(base) { return base }
        var number = 2
        while taken.contains("\(base)-\(number)") { number += 1 }
        return "\(base)-\(number)"
    }
}
