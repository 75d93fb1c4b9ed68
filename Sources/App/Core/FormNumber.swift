import FieldhouseKit

/// Reads one number field of a form the same way everywhere: a decimal comma or point, blanks allowed
/// or not, whole numbers where the field counts things, and the field's own message (with a hint when
/// the number could be read two ways) put in `errors` under `field`.
enum FormNumber {
    static func read(_ raw: String?, in range: ClosedRange<Double>, whole: Bool = false, required: Bool = false,
                     field: String, message: String, errors: inout [String: String]) -> Double? {
        switch NumberInput.read(raw) {
        case .blank:
            if required { errors[field] = message }
            return nil
        case .invalid(let ambiguous):
            errors[field] = ambiguous ? message + ". " + NumberInput.ambiguityHint : message
            return nil
        case .value(let value):
            guard range.contains(value), !whole || value == value.rounded() else {
                errors[field] = message
                return nil
            }
            return value
        }
    }

    /// `read` for whole numbers that fit in an `Int` (counts, minutes, beats).
    static func whole(_ raw: String?, in range: ClosedRange<Int>, required: Bool = false,
                      field: String, message: String, errors: inout [String: String]) -> Int? {
        read(raw, in: Double(range.lowerBound)...Double(range.upperBound), whole: true, required: required,
             field: field, message: message, errors: &errors).flatMap { Int(exactly: $0) }
    }
}
