@testable import App
import Foundation
import Testing
import Vapor

@Suite("Metrics: /metrics and what it counts")
struct MetricsTests {
    /// Requests are counted by route pattern and status (never by a path holding an id or a
    /// secret), samples stored by the API are counted, the job queue is read from the database;
    /// only this machine, connecting directly, reads it, or a scraper holding the token.
    @Test func requestsSamplesAndJobsAreCountedForTheOperatorOnly() async throws {
        try await withApp(config: { $0.metricsToken = "scraper-token-0123456789abcdef" }) { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = app.clock.milliseconds - 600_000
            let hr = (0..<30).map { #"{"t": \#(start + Int64($0) * 1000), "bpm": \#(120 + $0)}"# }.joined(separator: ",")
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [\#(hr)]}"#).status == .created)
            _ = try await ana.get("/teams")
            _ = try await app.browser().get("/calendar/a-secret-calendar-token.ics")
            _ = try await app.browser().get("/no/such/page/42")
            try await app.app.jobs.enqueue("accounts.cleanup", at: app.clock.now.addingTimeInterval(3600), on: app.db)

            let page = try await app.browser().get("/metrics")
            #expect(page.status == .ok && page.headers.contentType?.description.hasPrefix("text/plain") == true)
            let text = page.body
            #expect(text.contains(#"fieldhouse_http_requests_total{route="/teams",method="GET",status="200"} 1"#), "\(text.prefix(600))")
            #expect(text.contains(#"fieldhouse_http_requests_total{route="/api/v1/samples",method="POST",status="201"} 1"#))
            #expect(text.contains(#"fieldhouse_http_requests_total{route="/calendar/:file",method="GET",status="404"} 1"#))
            #expect(text.contains(#"route="unmatched",method="GET",status="404""#))
            #expect(!text.contains("a-secret-calendar-token") && !text.contains("/no/such/page"), "patterns, never paths")
            #expect(text.contains(#"fieldhouse_http_request_duration_seconds_count{route="/teams",method="GET"} 1"#))
            #expect(text.contains(#"fieldhouse_stored_total{what="samples"} 30"#))
            #expect(text.contains(#"fieldhouse_jobs{state="queued"}"#) && text.contains(#"fieldhouse_jobs{state="failed"} 0"#))

            // Behind a proxy every visitor comes from this machine too: the proxy's header gives them away.
            let proxied: HTTPHeaders = ["X-Forwarded-For": "203.0.113.9"]
            #expect(try await app.browser().get("/metrics", headers: proxied).status == .notFound)
            #expect(try await ana.get("/metrics", headers: proxied).status == .notFound, "signing in is not enough")
            #expect(try await app.browser().get("/metrics", headers: ["X-Real-IP": "203.0.113.9"]).status == .notFound, "nor a proxy of another kind")
            var withToken = proxied
            withToken.bearerAuthorization = BearerAuthorization(token: "scraper-token-0123456789abcdef")
            #expect(try await app.browser().get("/metrics", headers: withToken).status == .ok)
            var wrongToken = proxied
            wrongToken.bearerAuthorization = BearerAuthorization(token: "scraper-token-0123456789abcdeX")
            #expect(try await app.browser().get("/metrics", headers: wrongToken).status == .notFound)
        }
    }

    /// What `promtool check metrics` asks first: every family says what it is (`# HELP`) before its
    /// `# TYPE`, and the families are the ones `AppMetrics` declares.
    @Test func everyFamilyHasItsHelpLine() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let body = #"{"heart_rate": [{"t": \#(app.clock.milliseconds - 60_000), "bpm": 70}]}"#
            #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: body).status == .created)
            app.app.metrics.jobFailed(kind: "accounts.cleanup")

            let lines = try await app.browser().get("/metrics").body.split(separator: "\n").map(String.init)
            var typed: [String] = []
            for (index, line) in lines.enumerated() where line.hasPrefix("# TYPE ") {
                let name = String(line.dropFirst("# TYPE ".count).split(separator: " ")[0])
                typed.append(name)
                let help = index > 0 ? lines[index - 1] : ""
                #expect(help.hasPrefix("# HELP \(name) ") && help.count > "# HELP \(name) ".count + 10, "\(name) has no # HELP line")
            }
            #expect(lines.filter { $0.hasPrefix("# HELP ") }.count == typed.count)
            #expect(Set(typed) == Set(AppMetrics.Family.allCases.map(\.rawValue)), "\(typed)")
        }
    }

    @Test func theTokenAndTheLogFormatAreCheckedAtStart() throws {
        #expect(throws: AppConfig.Invalid.self) { try AppConfig.fromEnvironment(["FIELDHOUSE_METRICS_TOKEN": "short"]) }
        #expect(throws: AppConfig.Invalid.self) { try AppConfig.fromEnvironment(["FIELDHOUSE_METRICS_TOKEN": "has spaces in it and is long enough"]) }
        #expect(throws: AppConfig.Invalid.self) { try AppConfig.fromEnvironment(["LOG_FORMAT": "xml"]) }
        let config = try AppConfig.fromEnvironment(["FIELDHOUSE_METRICS_TOKEN": "scraper-token-0123456789abcdef", "LOG_FORMAT": "json"])
        #expect(config.metricsToken == "scraper-token-0123456789abcdef" && config.logsAsJSON)
        #expect(!config.startupSummary.contains("scraper-token"), "the summary never shows the token")
    }
}
