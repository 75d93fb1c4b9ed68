import FieldhouseKit
import Foundation
import Vapor

/// `/developers`: the device API for a person who writes a client, read from the same OpenAPI
/// document the API serves, so the page and the document cannot drift apart. Every operation
/// gets a `curl` line against this server's own address that works once `FIELDHOUSE_TOKEN` holds
/// a token from Settings → Devices (never a real token in a page or a URL).
struct DeveloperPage: Encodable {
    struct Parameter: Encodable {
        let name: String
        let place: String
        let about: String
    }

    struct Operation: Encodable {
        let anchor: String
        let link: String
        let method: String
        let path: String
        let summary: String
        /// The same in HTML: the document writes `names` in Markdown code.
        let summaryHTML: String
        /// Markdown rendered to HTML: the document is ours, not a visitor's.
        let about: String
        let parameters: [Parameter]
        let needsToken: Bool
        let curl: String
    }

    let layout: Layout
    let intro: String
    let documentURL: String
    let devicesURL: String
    let operations: [Operation]

    /// The operations of `document` (OpenAPI 3.1 JSON) in the document's order, with examples
    /// against `baseURL`. A document that cannot be read gives no operations; a test reads it.
    static func operations(from document: Data, baseURL: String) -> (intro: String, operations: [Operation]) {
        guard let root = try? JSONSerialization.jsonObject(with: document) as? [String: Any],
            let paths = root["paths"] as? [String: Any]
        else { return ("", []) }
        let components = root["components"] as? [String: Any] ?? [:]
        let intro = (root["info"] as? [String: Any])?["description"] as? String ?? ""
        let everywhere = !((root["security"] as? [Any])?.isEmpty ?? true)
        var operations: [Operation] = []
        // JSONSerialization forgets the order of keys: the paths are listed as the document writes them.
        for path in orderedKeys(of: "paths", in: document).filter({ paths[$0] != nil }) {
            guard let item = paths[path] as? [String: Any] else { continue }
            for method in ["get", "post", "put", "patch", "delete"] {
                guard let operation = item[method] as? [String: Any] else { continue }
                let parameters = (operation["parameters"] as? [Any] ?? []).compactMap { resolve($0, in: components) }
                let security = operation["security"] as? [[String: Any]]
                let needsToken = security.map { !$0.contains { $0.isEmpty } } ?? (everywhere || path != IngestPath.openAPIDocument.rawValue)
                let anchor = method + path.replacingOccurrences(of: "/", with: "-").filter { $0.isLetter || $0.isNumber || $0 == "-" }
                operations.append(
                    Operation(
                        anchor: anchor, link: "#" + anchor, method: method.uppercased(), path: path, summary: operation["summary"] as? String ?? "",
                        summaryHTML: Markdown.html(operation["summary"] as? String ?? ""),
                        about: Markdown.html(operation["description"] as? String ?? ""),
                        parameters: parameters.map { parameter in
                            Parameter(
                                name: parameter["name"] as? String ?? "", place: parameter["in"] as? String ?? "",
                                about: parameter["description"] as? String ?? "")
                        },
                        needsToken: needsToken,
                        curl: curl(
                            method: method.uppercased(), path: path, parameters: parameters, body: operation["requestBody"] as? [String: Any],
                            token: needsToken, baseURL: baseURL)))
            }
        }
        return (intro, operations)
    }

    /// A parameter, or the component a `$ref` names.
    private static func resolve(_ value: Any, in components: [String: Any]) -> [String: Any]? {
        guard let parameter = value as? [String: Any] else { return nil }
        guard let reference = parameter["$ref"] as? String else { return parameter }
        let name = reference.split(separator: "/").last.map(String.init) ?? ""
        return (components["parameters"] as? [String: Any])?[name] as? [String: Any]
    }

    /// One shell line (continued with backslashes) that calls the operation with its example.
    private static func curl(
        method: String, path: String, parameters: [[String: Any]], body: [String: Any]?, token: Bool, baseURL: String
    ) -> String {
        var url = baseURL + path.replacingOccurrences(of: "{id}", with: "$WORKOUT_ID")
        let query = parameters.filter { $0["in"] as? String == "query" }.compactMap { parameter -> String? in
            guard let name = parameter["name"] as? String, let example = parameter["example"] else { return nil }
            return name + "=" + exampleText(example)
        }
        if !query.isEmpty { url += "?" + query.joined(separator: "&") }
        var lines = ["curl" + (method == "GET" ? "" : " -X \(method)") + " \"\(url)\""]
        if token { lines.append("  -H \"Authorization: Bearer $FIELDHOUSE_TOKEN\"") }
        let content = body?["content"] as? [String: Any] ?? [:]
        if let json = content["application/json"] as? [String: Any], let example = json["example"],
            let data = try? JSONSerialization.data(withJSONObject: example, options: [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]),
            let text = String(data: data, encoding: .utf8)
        {
            lines.append("  -H \"Content-Type: application/json\"")
            lines.append("  -d '" + text.replacingOccurrences(of: "'", with: "'\\''") + "'")
        } else if let form = content["multipart/form-data"] as? [String: Any] {
            let example = form["example"] as? [String: Any] ?? [:]
            lines.append("  -F \"file=@run.gpx\"")
            for (name, value) in example.sorted(by: { $0.key < $1.key }) where name != "file" {
                lines.append("  -F \"\(name)=\(exampleText(value))\"")
            }
        }
        return lines.joined(separator: " \\\n")
    }

    private static func exampleText(_ value: Any) -> String {
        switch value {
        case let number as NSNumber: number.stringValue
        case let text as String: text
        default: "\(value)"
        }
    }

    /// The keys of the top-level object `name` in the order the JSON text writes them: a linear
    /// scan that counts nesting and skips strings, enough for our own document.
    static func orderedKeys(of name: String, in document: Data) -> [String] {
        let bytes = [UInt8](document)
        let marker = Array("\"\(name)\"".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else { return [] }
        var keys: [String] = []
        var depth = 0
        var index = start + marker.count
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                if depth == 1 && expectingKey, end <= bytes.count {
                    keys.append(String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self))
                    expectingKey = false
                }
                index = end + 1
                continue
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 1 { expectingKey = true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return keys }
            case UInt8(ascii: ","):
                if depth == 1 { expectingKey = true }
            default: break
            }
            index += 1
        }
        return keys
    }
}

/// Serves `/developers`, built once from the document `OpenAPIController` serves.
struct DeveloperController: RouteCollection {
    let intro: String
    let operations: [DeveloperPage.Operation]

    init(document: Data, baseURL: String) {
        (intro, operations) = DeveloperPage.operations(from: document, baseURL: baseURL)
    }

    func boot(routes: any RoutesBuilder) throws {
        routes.get(IngestPath.developers) { req async throws -> View in
            try await req.view.render(
                "accounts/developers",
                DeveloperPage(
                    layout: req.layout(title: t("The device API")), intro: Markdown.html(intro), documentURL: SiteURL.openAPIDocument.path,
                    devicesURL: SiteURL.deviceSettings.path, operations: operations))
        }
    }
}
