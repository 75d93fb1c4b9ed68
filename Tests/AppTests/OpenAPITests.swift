@testable import App
import Foundation
import Testing
import Vapor

/// Every route in `/api/v1/openapi.json` exists and answers its documented example with a
/// documented status and the documented top-level fields.
@Suite("OpenAPI document")
struct OpenAPITests {
    @Test func everyDocumentedRouteAnswersItsExampleAsDocumented() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let spec = try await ana.get("/api/v1/openapi.json")
            #expect(spec.status == .ok)
            #expect(spec.json["openapi"] as? String == "3.1.0")
            let components = try #require(spec.json["components"] as? [String: Any])
            let paths = try #require(spec.json["paths"] as? [String: [String: Any]])
            #expect(paths.count >= 8)

            // A workout for the routes that take an id.
            let made = try await ana.api(
                .POST, "/api/v1/workouts", token: token,
                json: #"{"sport": "walking", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:30:00Z"}"#)
            let id = try #require(made.workout["id"] as? String)
            // A workout still recording, for sharing one live.
            let recording = try #require(
                try await ana.api(.POST, "/api/v1/workouts", token: token, json: #"{"external_id": "rec-1", "sport": "running"}"#).workout["id"] as? String)
            // The café of the check-in example, and a ride that makes Ana eligible for its reward.
            let café = Place()
            café.id = UUID(uuidString: "00000000-0000-4000-8000-00000000c0de")
            café.name = "Example Café"
            café.kind = .cafe
            (café.latitude, café.longitude, café.radius) = (55.676, 12.569, 60)
            (café.description, café.openingHours, café.sportsText, café.timeZone) = ("", "", "", "UTC")
            (café.rewardText, café.rewardDailyCap) = ("A free coffee by bike", 10)
            try await café.create(on: app.db)
            try await PlacesTests.turnOnRewards(ana)
            _ = try await ana.api(
                .POST, "/api/v1/samples", token: token, json: PlacesTests.motion("cycling", from: app.clock.milliseconds - 20 * 60_000, minutes: 15))
            try await PlacesTests.rideLive(app, ana, token: token)
            try await PlacesTests.confirmAddress(app, "ana")

            func resolve(_ node: Any?) -> [String: Any]? {
                guard var object = node as? [String: Any] else { return nil }
                while let ref = object["$ref"] as? String {
                    var target: Any? = ["components": components]
                    for part in ref.dropFirst(2).split(separator: "/") { target = (target as? [String: Any])?[String(part)] }
                    guard let next = target as? [String: Any] else { return nil }
                    object = next
                }
                return object
            }
            func satisfies(_ value: Any, _ schemaNode: Any?) -> Bool {
                guard let schema = resolve(schemaNode) else { return true }
                if let choices = schema["oneOf"] as? [Any] { return choices.contains { satisfies(value, $0) } }
                guard let required = schema["required"] as? [String] else { return true }
                guard let object = value as? [String: Any] else { return false }
                return required.allSatisfy { object.keys.contains($0) }
            }

            // Every operation, the ones that delete last (the others need the workout still there).
            var operations: [(template: String, method: String, node: Any)] = []
            for template in paths.keys.sorted() {
                let methods: [String: Any] = paths[template] ?? [:]
                for method in methods.keys.sorted() { operations.append((template, method, methods[method] as Any)) }
            }
            operations = operations.filter { $0.method != "delete" } + operations.filter { $0.method == "delete" }
            #expect(operations.count >= 10, "the document has only \(operations.count) operations")
            for (template, method, operationNode) in operations {
                let operation = try #require(operationNode as? [String: Any])
                var path = template.replacingOccurrences(of: "{id}", with: template.hasSuffix("/live") ? recording : id)
                let parameters = (operation["parameters"] as? [Any] ?? []).compactMap(resolve)
                let query = parameters.filter { $0["in"] as? String == "query" }
                    .compactMap { p in p["example"].map { "\(p["name"]!)=\("\($0)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" } }
                if !query.isEmpty { path += "?" + query.joined(separator: "&") }

                let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: [String: Any]] ?? [:]
                let answer: Browser.Page
                if let multipart = content["multipart/form-data"], let example = multipart["example"] as? [String: String] {
                    let fields = example.filter { $0.key != "file" }.map { ($0.key, $0.value) }
                    answer = try await ana.uploadFile(Array(example["file", default: ""].utf8), filename: "example.gpx", token: token, fields: fields)
                } else if let json = content["application/json"], let example = json["example"] {
                    let body = String(decoding: try JSONSerialization.data(withJSONObject: example), as: UTF8.self)
                    answer = try await ana.api(HTTPMethod(rawValue: method.uppercased()), path, token: token, json: body)
                } else {
                    answer = try await ana.api(HTTPMethod(rawValue: method.uppercased()), path, token: token)
                }
                let responses = try #require(operation["responses"] as? [String: Any])
                let status = String(answer.status.code)
                #expect(responses.keys.contains(status), "\(method.uppercased()) \(template) answered \(status): \(answer.body.prefix(300))")
                #expect((200..<300).contains(Int(answer.status.code)), "\(method.uppercased()) \(template) example failed: \(answer.body.prefix(300))")
                let schema = (resolve(responses[status])?["content"] as? [String: [String: Any]])?["application/json"]?["schema"]
                if answer.status == .noContent {
                    #expect(answer.bytes.isEmpty && schema == nil, "\(method.uppercased()) \(template): a 204 has no body")
                } else {
                    let body = try JSONSerialization.jsonObject(with: Data(answer.bytes))
                    #expect(satisfies(body, schema), "\(method.uppercased()) \(template): \(answer.body.prefix(300))")
                }

                // Documented as needing a token: without one, a 401 in the documented shape. (Where a
                // token is optional, `security` lists `{}` and only a bad token is a 401.)
                let tokenOptional = (operation["security"] as? [[String: Any]])?.contains { $0.isEmpty } == true
                if responses.keys.contains("401"), !tokenOptional {
                    let refused = try await app.browser().api(HTTPMethod(rawValue: method.uppercased()), path, token: nil)
                    #expect(refused.status == .unauthorized, "\(method.uppercased()) \(template) without a token")
                    #expect(refused.errorCode == "unauthorized")
                }
            }
        }
    }

    /// The lists the document spells out are the code's lists, so neither can change alone.
    @Test func theDocumentsListsAreTheCodes() async throws {
        try await withApp { app in
            let spec = try await app.browser().get("/api/v1/openapi.json").json
            let components = try #require(spec["components"] as? [String: Any])
            let schemas = try #require(components["schemas"] as? [String: [String: Any]])
            let paths = try #require(spec["paths"] as? [String: [String: Any]])
            func parameters(_ path: String) -> [String: [String: Any]] {
                let operation = paths[path]?["get"] as? [String: Any]
                let list = operation?["parameters"] as? [[String: Any]] ?? []
                return Dictionary(
                    list.compactMap { p in (p["name"] as? String).map { ($0, p["schema"] as? [String: Any] ?? [:]) } }, uniquingKeysWith: { a, _ in a })
            }
            #expect(schemas["Sport"]?["enum"] as? [String] == WorkoutSport.allCases.map(\.rawValue))
            let keys = parameters("/api/v1/workouts/{id}/streams")["keys"]?["items"] as? [String: Any]
            #expect(keys?["enum"] as? [String] == WorkoutStreams.keys)
            let find = parameters("/api/v1/find")
            #expect(find["sport"]?["enum"] as? [String] == [""] + Sport.allCases.map(\.rawValue))
            #expect(find["skill"]?["enum"] as? [String] == [""] + TeamSkill.allCases.map(\.rawValue))
            #expect(find["age"]?["enum"] as? [String] == [""] + AgeGroup.allCases.map(\.rawValue))
            #expect(find["gender"]?["enum"] as? [String] == [""] + TeamGender.allCases.map(\.rawValue))
            #expect(find["when"]?["enum"] as? [String] == [""] + Choices().days.map(\.value))
            #expect(find["sort"]?["enum"] as? [String] == [""] + Choices().sorts.map(\.value))
            let time = try #require(schemas["Time"]?["oneOf"] as? [[String: Any]])
            #expect(time.contains { ($0["minimum"] as? NSNumber)?.int64Value == Plausible.earliestMilliseconds }, "the year-2000 bound")
        }
    }

    /// Every documented path answers the methods it does not document with 405, and its `Allow`
    /// lists exactly the documented ones (and HEAD with GET, which Vapor answers with the GET route).
    @Test func everyDocumentedPathAllowsWhatItDocuments() async throws {
        try await withApp { app in
            let device = app.browser()
            let paths = try #require(try await device.get("/api/v1/openapi.json").json["paths"] as? [String: [String: Any]])
            #expect(paths.count >= 8, "the document has only \(paths.count) paths")
            for (template, operations) in paths {
                let path = template.replacingOccurrences(of: "{id}", with: UUID().uuidString)
                var documented = Set(operations.keys.map { $0.uppercased() }).intersection(["GET", "POST", "PUT", "PATCH", "DELETE"])
                if documented.contains("GET") { documented.insert("HEAD") }
                let other: HTTPMethod = documented.contains("POST") ? .PUT : .POST
                let answer = try await device.api(other, path, token: nil)
                #expect(answer.status == .methodNotAllowed, "\(other) \(template)")
                #expect(answer.headers.first(name: .allow) == documented.sorted().joined(separator: ", "), "\(template)")
            }
        }
    }

    /// `/developers` is the same document for people: every operation in the document's order,
    /// with a curl line against this server's address that takes the token from the shell, never
    /// a real one; readable signed out and linked from Settings → Devices.
    @Test func theDeveloperPageDescribesEveryOperation() async throws {
        try await withApp { app in
            let visitor = app.browser()
            let paths = try #require(try await visitor.get("/api/v1/openapi.json").json["paths"] as? [String: [String: Any]])
            let page = try await visitor.get("/developers")
            #expect(page.status == .ok)
            var shown = 0
            for (path, operations) in paths {
                for method in operations.keys where ["get", "post"].contains(method) {
                    shown += 1
                    #expect(page.contains("<code>\(method.uppercased()) \(path)</code>"), "\(method) \(path)")
                }
            }
            #expect(shown >= 8, "only \(shown) operations were looked for")
            let base = app.app.config.baseURL
            #expect(page.contains("curl -X POST &quot;\(base)/api/v1/workouts&quot;") || page.contains("curl -X POST \"\(base)/api/v1/workouts\""))
            #expect(page.contains("Authorization: Bearer $FIELDHOUSE_TOKEN"))
            #expect(page.contains("-F &quot;file=@run.gpx&quot;") || page.contains("-F \"file=@run.gpx\""))
            // The order is the document's: samples before uploads, as written.
            let samples = try #require(page.body.range(of: "<code>POST /api/v1/samples</code>"))
            let uploads = try #require(page.body.range(of: "<code>POST /api/v1/uploads</code>"))
            #expect(samples.lowerBound < uploads.lowerBound)
            let ana = app.browser()
            try await ana.signUp("ana")
            #expect(try await ana.get("/settings/devices").main.contains(#"href="/developers""#))
        }
    }
}
