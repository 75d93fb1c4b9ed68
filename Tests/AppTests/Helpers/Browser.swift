@testable import App
import Foundation
import Testing
import Vapor

/// A browser for tests: real HTTP to the running app, a cookie jar, and form posts that carry the
/// CSRF token from the page they came from, exactly as a person's browser would.
final class Browser: @unchecked Sendable {
    let app: TestApp
    private(set) var cookies: [String: String] = [:]
    /// The username this browser last signed up or logged in with.
    private(set) var username: String?
    /// Headers sent with every request, e.g. the `X-Forwarded-For` a reverse proxy would add.
    var extraHeaders = HTTPHeaders()
    /// A 5xx a test provokes on purpose (a 502 when a tile server fails); any other fails the test.
    var expectedServerError: HTTPStatus?

    init(app: TestApp) { self.app = app }

    struct Page {
        let status: HTTPStatus
        let headers: HTTPHeaders
        let body: String
        let bytes: [UInt8]
        var location: String? { headers.first(name: .location) }

        /// The CSRF token of the first form on the page.
        var csrf: String? { firstMatch(#"name="csrf" value="([^"]+)""#) }

        func firstMatch(_ pattern: String) -> String? {
            guard let regex = try? NSRegularExpression(pattern: pattern),
                let match = regex.firstMatch(in: body, range: NSRange(body.startIndex..., in: body)),
                let range = Range(match.range(at: 1), in: body)
            else { return nil }
            return String(body[range])
        }

        func contains(_ text: String) -> Bool { body.contains(text) }
    }

    @discardableResult
    func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> Page {
        try await send(.GET, path, headers: headers, body: nil)
    }

    /// Posts a URL-encoded form. `csrfFrom` names the page whose token to send (fetched first);
    /// pass nil to send no token at all.
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)], csrfFrom page: String? = "/", headers extra: HTTPHeaders = [:]) async throws -> Page {
        var fields = fields
        if let page, let token = try await get(page).csrf {
            fields.append(("csrf", token))
        }
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        var headers = extra
        headers.contentType = .urlEncodedForm
        return try await send(.POST, path, headers: headers, body: ByteBuffer(string: body))
    }

    /// Posts a multipart form with one file, as an `<input type=file>` would.
    @discardableResult
    func upload(_ path: String, field: String, filename: String, contentType: String, data: [UInt8], csrfFrom page: String) async throws -> Page {
        try await multipart(path, fields: [], file: (field, filename, contentType, data), csrfFrom: page)
    }

    /// A `multipart/form-data` POST the way a browser sends a form: the CSRF token first, then the
    /// fields in order, then the file.
    func multipart(
        _ path: String, fields: [(String, String)], file: (field: String, filename: String, contentType: String, data: [UInt8])?,
        csrfFrom page: String?, headers extra: HTTPHeaders = [:]
    ) async throws -> Page {
        try await multipartFiles(path, fields: fields, files: file.map { [$0] } ?? [], csrfFrom: page, headers: extra)
    }

    /// The same with any number of file parts (a hostile form may send two where one is expected).
    func multipartFiles(
        _ path: String, fields: [(String, String)], files: [(field: String, filename: String, contentType: String, data: [UInt8])],
        csrfFrom page: String?, headers extra: HTTPHeaders = [:]
    ) async throws -> Page {
        let boundary = "----fieldhouse" + UUID().uuidString
        var body = ByteBuffer()
        if let page, let token = try await get(page).csrf {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(token)\r\n")
        }
        for (name, value) in fields {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        for file in files {
            body.writeString(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.contentType)\r\n\r\n"
            )
            body.writeBytes(file.data)
            body.writeString("\r\n")
        }
        body.writeString("--\(boundary)--\r\n")
        var headers = extra
        headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
        return try await send(.POST, path, headers: headers, body: body)
    }

    func send(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders, body: ByteBuffer?) async throws -> Page {
        var headers = headers
        for (name, value) in extraHeaders { headers.replaceOrAdd(name: name, value: value) }
        if !cookies.isEmpty {
            headers.replaceOrAdd(name: .cookie, value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        var request = ClientRequest(method: method, url: URI(string: "http://127.0.0.1:\(app.port)\(path)"), headers: headers)
        request.body = body
        let response = try await app.app.client.send(request)
        for header in response.headers[.setCookie] {
            guard let pair = header.split(separator: ";").first, let eq = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<eq]).trimmingCharacters(in: .whitespaces)
            let value = String(pair[pair.index(after: eq)...])
            let expired = header.lowercased().contains("expires=thu, 01 jan 1970") || value.isEmpty
            if expired { cookies[name] = nil } else { cookies[name] = value }
        }
        let bytes = response.body.map { Array($0.readableBytesView) } ?? []
        // No test expects the server to fail: a 5xx fails the test wherever it happens, even where
        // the test only checks that something is *not* on the page.
        if response.status.code >= 500, response.status != expectedServerError {
            Issue.record("\(method) \(path) answered \(response.status)")
        }
        return Page(status: response.status, headers: response.headers, body: String(decoding: bytes, as: UTF8.self), bytes: bytes)
    }

    func setCookie(_ name: String, _ value: String?) { cookies[name] = value }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    // MARK: Common journeys

    static let password = "correct horse battery"

    /// Signs up through the real form; the new person is signed in afterwards.
    @discardableResult
    func signUp(_ username: String, name: String? = nil, birthDate: String = "1990-05-17") async throws -> Page {
        let page = try await post(
            "/signup",
            [
                ("username", username), ("email", "\(username)@example.org"), ("password", Self.password),
                ("display_name", name ?? username.capitalized), ("birth_date", birthDate),
            ], csrfFrom: "/signup")
        #expect(page.status == .seeOther, "sign-up of \(username) failed: \(page.body.prefix(300))")
        self.username = username
        return page
    }

    @discardableResult
    func logIn(_ login: String, password: String = Browser.password, next: String = "/") async throws -> Page {
        if !login.contains("@") { username = login }
        return try await post("/login", [("login", login), ("password", password), ("next", next)], csrfFrom: "/login")
    }

    func logOut() async throws {
        try await post("/logout", [], csrfFrom: "/")
    }

    /// Fills the profile form with sensible values, overridden by `changes`.
    @discardableResult
    func saveProfile(_ changes: [String: String] = [:]) async throws -> Page {
        var fields: [String: String] = [
            "display_name": "Test Person", "bio": "", "birth_date": "1990-05-17", "gender": "unspecified",
            "height_cm": "175", "weight_kg": "70", "home_name": "", "home_lat": "", "home_lon": "",
            "time_zone": "Europe/Copenhagen", "units": "metric",
        ]
        for (key, value) in changes { fields[key] = value }
        return try await post("/settings/profile", fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, csrfFrom: "/settings/profile")
    }
}
