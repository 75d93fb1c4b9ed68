import Foundation

/// Numbers as people type them into a form. "8.5" and "8,5" are the same number, whichever decimal
/// mark a person's keyboard or habit has; a number with more than one mark ("1,234.5", "1.234,5",
/// "12,000,000") could be read two ways, so it is refused rather than guessed. Browsers' own number
/// fields read "8,5" as 85 in English, which is why the forms use text fields with this parser.
public enum NumberInput {
    public enum Reading: Equatable, Sendable {
        /// Nothing typed (or only spaces).
        case blank
        case value(Double)
        /// Not a number as written; `ambiguous` when it has more than one decimal mark or separator.
        case invalid(ambiguous: Bool)
    }

    /// Longer input is not a number anyone types into a form, and is not worth reading.
    static let maxLength = 32

    public static func read(_ raw: String?) -> Reading {
        guard let raw else { return .blank }
        let text = raw.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .blank }
        guard text.utf8.count <= maxLength else { return .invalid(ambiguous: false) }
        var digits = ""
        var marks = 0
        var negative = false
        for (index, character) in text.enumerated() {
            switch character {
            case "0"..."9": digits.append(character)
            case ".", ",":
                marks += 1
                digits.append(".")
            case "-", "−", "+":
                guard index == 0 else { return .invalid(ambiguous: false) }
                negative = character != "+"
            default:
                return .invalid(ambiguous: false)
            }
        }
        if marks > 1 { return .invalid(ambiguous: true) }
        // At least one digit, and not a lone mark: "." or "-" are not numbers.
        guard digits.contains(where: \.isNumber), let value = Double(digits), value.isFinite else { return .invalid(ambiguous: false) }
        // "-0" is zero, not a negative zero that would print as "-0.00 km".
        return .value(negative && value != 0 ? -value : value)
    }

    /// The sentence a form adds when a number could be read two ways.
    public static var ambiguityHint: String {
        t("Write it without thousands separators, with one decimal point or comma, like 8.5 or 8,5")
    }
}
