import Vapor

/// Turns every error into an answer a person can read: an HTML page for browsers, and
/// `{"error": {"code", "message"}}` under `/api/`. Internal details are logged, never shown.
struct ErrorPageMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            // Inside the session, so a signed-in person's setting decides (the outer language
            // middleware only knows the browser).
            return await Language.$current.withValue(request.language) { await response(for: error, on: request) }
        }
    }

    private func response(for error: any Error, on request: Request) async -> Response {
        let status: HTTPResponseStatus
        let message: String
        var headers = HTTPHeaders()
        var code: String?
        var accepted: [String]?
        var fields: [String: String]?
        switch error {
        case let api as APIError:
            status = api.status
            message = api.reason
            code = api.code
            accepted = api.accepted
            fields = api.fields
        case let abort as any AbortError where (300..<400).contains(abort.status.code):
            // `Abort.redirect` (e.g. "sign in first") is an answer, not a failure.
            return Response(status: abort.status, headers: abort.headers)
        case let abort as any AbortError:
            status = abort.status
            headers = abort.headers
            message = status == .internalServerError ? Self.serverErrorMessage : Self.message(for: abort)
        default:
            status = .internalServerError
            message = Self.serverErrorMessage
        }
        if status.code >= 500 {
            request.logger.report(error: error)
        }

        if request.url.path.hasPrefix("/api/") {
            let body = APIErrorBody(error: .init(code: code ?? Self.code(for: status), message: message, accepted: accepted, fields: fields))
            let response = Response(status: status, headers: headers)
            try? response.content.encode(body)
            return response
        }

        let page = ErrorPage(
            layout: request.layout(title: Self.title(for: status)),
            status: Int(status.code), title: Self.title(for: status), message: message
        )
        do {
            let view = try await request.view.render("errors/error", page)
            let response = try await view.encodeResponse(status: status, headers: headers, for: request)
            return response
        } catch {
            request.logger.report(error: error)
            return Response(status: status, headers: headers, body: .init(string: "\(status.code) \(message)"))
        }
    }

    static var serverErrorMessage: String { t("Something went wrong on our side. Please try again in a moment.") }

    /// Vapor's built-in reasons are written for developers; these are written for people.
    private static func message(for abort: any AbortError) -> String {
        if abort is DecodingError {
            return t("Some of what was sent could not be read. Check the form and try again.")
        }
        let reason = abort.reason
        switch abort.status {
        case .notFound where reason == "Not Found":
            return t("There is nothing here. The link may be wrong, or the page may be private.")
        case .payloadTooLarge where reason == "Payload Too Large":
            return t("That is too large to upload.")
        case .forbidden where reason == "Forbidden":
            return t("You are not allowed to do that.")
        default:
            // An `Abort` without a reason of its own carries the status's standard phrase.
            return reason == abort.status.reasonPhrase ? phrase(for: abort.status) : reason
        }
    }

    /// The standard phrase of a status (`reasonPhrase`), in the language of the request.
    private static func phrase(for status: HTTPResponseStatus) -> String {
        switch status.code {
        case 400: t("Bad Request")
        case 401: t("Unauthorized")
        case 402: t("Payment Required")
        case 403: t("Forbidden")
        case 404: t("Not Found")
        case 405: t("Method Not Allowed")
        case 406: t("Not Acceptable")
        case 407: t("Proxy Authentication Required")
        case 408: t("Request Timeout")
        case 409: t("Conflict")
        case 410: t("Gone")
        case 411: t("Length Required")
        case 412: t("Precondition Failed")
        case 413: t("Payload Too Large")
        case 414: t("URI Too Long")
        case 415: t("Unsupported Media Type")
        case 416: t("Range Not Satisfiable")
        case 417: t("Expectation Failed")
        case 421: t("Misdirected Request")
        case 422: t("Unprocessable Entity")
        case 423: t("Locked")
        case 424: t("Failed Dependency")
        case 426: t("Upgrade Required")
        case 428: t("Precondition Required")
        case 429: t("Too Many Requests")
        case 431: t("Request Header Fields Too Large")
        case 451: t("Unavailable For Legal Reasons")
        case 500: t("Internal Server Error")
        case 501: t("Not Implemented")
        case 502: t("Bad Gateway")
        case 503: t("Service Unavailable")
        case 504: t("Gateway Timeout")
        default: status.reasonPhrase
        }
    }

    private static func title(for status: HTTPResponseStatus) -> String {
        switch status.code {
        case 400: t("That request could not be read")
        case 401: t("Please sign in")
        case 403: t("Not allowed")
        case 404: t("Page not found")
        case 413: t("Too large")
        case 415: t("Unsupported file")
        case 429: t("Too many attempts")
        case 500...: t("Something went wrong")
        default: phrase(for: status)
        }
    }

    private static func code(for status: HTTPResponseStatus) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 409: "conflict"
        case 413: "too_large"
        case 415: "unsupported_media_type"
        case 422: "invalid"
        case 429: "rate_limited"
        default: status.code >= 500 ? "server_error" : "error"
        }
    }
}

/// An error with a machine-readable code for the device API.
struct APIError: AbortError {
    let status: HTTPResponseStatus
    let code: String
    let reason: String
    /// For 415: the types that would have been taken.
    var accepted: [String]? = nil
    /// For 422 on a query: a message per bad parameter.
    var fields: [String: String]? = nil
}

struct APIErrorBody: Content {
    struct Detail: Codable {
        let code: String
        let message: String
        var accepted: [String]? = nil
        var fields: [String: String]? = nil
    }
    let error: Detail
}

struct ErrorPage: Encodable {
    let layout: Layout
    let status: Int
    let title: String
    let message: String
}
