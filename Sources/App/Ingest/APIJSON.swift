import Vapor

/// Request bodies of the device API.
enum APIJSON {
    /// Strict JSON: malformed or wrongly typed bodies are refused whole, saying where.
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
                status: .badRequest, code: "invalid_json",
                reason: t("{field} must be {type}, not null.", path(context.codingPath), describe(expected)))
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
        default: t("of another type")
        }
    }
}
