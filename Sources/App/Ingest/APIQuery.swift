import Vapor

/// The query string of a device API request (or a form body, encoded the same way), read
/// strictly: a parameter given twice, or with a value of the wrong shape, is a 400 naming it
/// rather than a default taken in silence.
struct APIQuery {
    private var values: [String: [String]] = [:]
    /// The error code of a bad value: `invalid_query`, or `invalid_form` for a body.
    let code: String

    init(_ req: Request) {
        self.init(encoded: req.url.query ?? "", code: "invalid_query")
    }

    init(encoded: String, code: String) {
        self.code = code
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            values[decoded(parts[0]), default: []].append(parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    /// The first parameter given more than once, if any.
    var repeated: String? { values.filter { $0.value.count > 1 }.keys.sorted().first }

    /// The parameter's one value, or nil when it is not given.
    func value(_ name: String) throws -> String? {
        guard let given = values[name] else { return nil }
        guard given.count == 1 else { throw Self.repeatedError(name, code: code) }
        return given[0]
    }

    static func repeatedError(_ name: String, code: String = "invalid_query") -> APIError {
        APIError(status: .badRequest, code: code, reason: t("{parameter} is given more than once.", name), fields: [name: t("Give it once.")])
    }

    /// A number as programs write one (`55.68`, `-9`, `1e-05`), finite and within `range`.
    func number(_ name: String, in range: ClosedRange<Double>, otherwise message: String) throws -> Double? {
        guard let raw = try value(name) else { return nil }
        guard raw.utf8.count <= 40, let number = Double(raw), number.isFinite, range.contains(number) else {
            throw APIError(status: .badRequest, code: code, reason: message, fields: [name: message])
        }
        return number
    }

    /// A whole number written in digits only (no sign, no point, no spaces), within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>, otherwise message: String) throws -> Int? {
        guard let raw = try value(name) else { return nil }
        guard !raw.isEmpty, raw.count <= 9, raw.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(raw), range.contains(number) else {
            throw APIError(status: .badRequest, code: code, reason: message, fields: [name: message])
        }
        return number
    }
}

/// Under `/api/`, a query parameter given twice is a 400 on every route: the API takes no lists
/// that way (a list is one comma-separated value), and which of two values counts would be a guess.
struct RepeatedParameterMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.url.path.hasPrefix("/api/"), request.url.query != nil, let name = APIQuery(request).repeated {
            throw APIQuery.repeatedError(name)
        }
        return try await next.respond(to: request)
    }
}
