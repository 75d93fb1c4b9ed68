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

            for (template, operations) in paths.sorted(by: { $0.key < $1.key }) {
                for (method, operationNode) in operations {
                    let operation = try #require(operationNode as? [String: Any])
                    var path = template.replacingOccurrences(of: "{id}", with: id)
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
                    let body = try JSONSerialization.jsonObject(with: Data(answer.bytes))
                    #expect(satisfies(body, schema), "\(method.uppercased()) \(template): \(answer.body.prefix(300))")

                    // Documented as needing a token: without one, a 401 in the documented shape.
                    if responses.keys.contains("401") {
                        let refused = try await app.browser().api(HTTPMethod(rawValue: method.uppercased()), path, token: nil)
                        #expect(refused.status == .unauthorized, "\(method.uppercased()) \(template) without a token")
                        #expect(refused.errorCode == "unauthorized")
                    }
                }
            }
        }
    }
}
