import Vapor

/// Request bodies of the device API.
enum APIJSON {
    /// Strict JSON: malformed or wrongly typed bodies are refused whole, saying where. `null` is
    /// a 422 wherever the body type reads a field (required, or optional and marked `@NotNull`):
    /// a field without a value is left out, so `{"name": null}` is not quietly read as no name.
    static func decode<T: Decodable>(_ type: T.Type, from req: Request) throws -> T {
        guard let body = req.body.data, body.readableBytes > 0 else {
            throw APIError(status: .badRequest, code: "invalid_json", reason: t("The request has no body; send JSON."))
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let DecodingError.typeMismatch(expected, context) {
            throw APIError(
                status: .badRequest, code: "invalid_json",
                reason: t("{field} must be {type}.", path(context.codingPath), describe(expected)))
        } catch let DecodingError.keyNotFound(key, context) {
            throw APIError(
                status: .badRequest, code: "invalid_json",
                reason: t("{field} is missing.", path(context.codingPath + [key])))
        } catch let DecodingError.valueNotFound(expected, context) {
            throw APIError(
                status: .unprocessableEntity, code: "invalid_field",
                reason: context.codingPath.isEmpty
                    ? t("The body must be a JSON object.") : t("{field} must be {type}, not null.", path(context.codingPath), describe(expected)))
        } catch {
            throw APIError(status: .badRequest, code: "invalid_json", reason: t("The body is not valid JSON."))
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? t("The body") : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: t("a number")
        case is String.Type: t("a string")
        case is [Any].Type: t("an array")
        case is SampleTimeValue.Type: t("an RFC 3339 string or epoch milliseconds")
        default: t("of another type")
        }
    }
}

/// An optional field of a request body that may be left out but not sent as `null`: `APIJSON`
/// answers a null with a 422 naming the field.
@propertyWrapper
struct NotNull<Value: Decodable>: Decodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            throw DecodingError.valueNotFound(Value.self, .init(codingPath: decoder.codingPath, debugDescription: "null"))
        }
        wrappedValue = try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A `@NotNull` field that is left out is nil; one that is present is read, null or not.
    func decode<Value>(_ type: NotNull<Value>.Type, forKey key: Key) throws -> NotNull<Value> {
        guard contains(key) else { return NotNull(wrappedValue: nil) }
        return try NotNull(from: superDecoder(forKey: key))
    }
}
