import Vapor

/// Request bodies of the device API.
enum APIJSON {
    /// Strict JSON: malformed or wrongly typed bodies are refused whole, saying where.
    static func decode<T: Decodable>(_ type: T.Type, from req: Request) throws -> T {
        guard let body = req.body.data, body.readableBytes > 0 else {
            throw APIError(status: .badRequest, code: "invalid_json", reason: "The request has no body; send JSON.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let DecodingError.typeMismatch(expected, context) {
            throw APIError(
                status: .badRequest, code: "invalid_json",
                reason: "\(path(context.codingPath)) must be \(describe(expected)).")
        } catch let DecodingError.keyNotFound(key, context) {
            throw APIError(
                status: .badRequest, code: "invalid_json",
                reason: "\(path(context.codingPath + [key])) is missing.")
        } catch let DecodingError.valueNotFound(expected, context) {
            throw APIError(
                status: .badRequest, code: "invalid_json",
                reason: "\(path(context.codingPath)) must be \(describe(expected)), not null.")
        } catch {
            throw APIError(status: .badRequest, code: "invalid_json", reason: "The body is not valid JSON.")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "The body" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        default: "of another type"
        }
    }
}
