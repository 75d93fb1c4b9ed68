import FieldhouseKit

/// Reads one number field of a form the same way everywhere: a decimal comma or point, blanks allowed
/// or not, whole numbers where the field counts things, and the field's own message (with a hint when
/// the number could be read two ways) put in `errors` under `field`.
enum FormNumber {
    /// A latitude or longitude field (`axis` is "latitude" or "longitude", the field's name): the
    /// number, or the message to show under the field.
    static func coordinate(_ raw: String?, range: ClosedRange<Double>, axis: String) -> (value: Double?, error: String?) {
        var errors: FieldErrors = [:]
        let value = FormNumber.read(
            raw, in: range, field: axis,
            message: axis == "latitude"
                ? t("Enter a latitude between {min} and {max}", Int(range.lowerBound), Int(range.upperBound))
                : t("Enter a longitude between {min} and {max}", Int(range.lowerBound), Int(range.upperBound)),
            errors: &errors)
        return (value, errors[axis])
    }

    static func read(
        _ raw: String?, in range: ClosedRange<Double>, whole: Bool = false, required: Bool = false,
        field: String, message: String, errors: inout FieldErrors
    ) -> Double? {
        switch NumberInput.read(raw) {
        case .blank:
            if required { errors[field] = message }
            return nil
        case .invalid(let ambiguous):
            errors[field] = ambiguous ? message + ". " + NumberInput.ambiguityHint : message
            return nil
        case .value where whole && (raw ?? "").contains(where: { $0 == "," || $0 == "." }):
            // "10,000 steps" must not become 10: whole numbers are written without any mark.
            errors[field] = message + ". " + t("Write it without separators, like 10000")
            return nil
        case .value(let value):
            guard range.contains(value), !whole || value == value.rounded() else {
                errors[field] = message
                return nil
            }
            return value
        }
    }

    /// A stored number as a form shows it for editing: plain digits, never "1e-05", which `read` refuses.
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), let whole = Int(exactly: value) { return String(whole) }
        var text = Format.machineNumber(value, decimals: 6)
        while text.hasSuffix("0") { text.removeLast() }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// `read` for whole numbers that fit in an `Int` (counts, minutes, beats).
    static func whole(
        _ raw: String?, in range: ClosedRange<Int>, required: Bool = false,
        field: String, message: String, errors: inout FieldErrors
    ) -> Int? {
        read(
            raw, in: Double(range.lowerBound)...Double(range.upperBound), whole: true, required: required,
            field: field, message: message, errors: &errors
        ).flatMap { Int(exactly: $0) }
    }
}
