@testable import App
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@Suite("Shell: health, headers, errors, configuration")
struct CoreTests {
    @Test func healthAnswersOkAfterADatabaseRoundTrip() async throws {
        try await withApp { app in
            let page = try await app.browser().get("/healthz")
            #expect(page.status == .ok)
            #expect(page.body == "ok")
        }
    }

    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        try await withApp { app in
            let browser = app.browser()
            for path in ["/", "/login", "/does-not-exist", "/css/app.css", "/healthz"] {
                let page = try await browser.get(path)
                let csp = try #require(page.headers.first(name: "Content-Security-Policy"), "\(path) has no CSP")
                #expect(csp.contains("frame-ancestors 'none'"))
                #expect(csp.contains("script-src 'self'"))
                #expect(!csp.contains("unsafe-inline"))
                #expect(page.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(page.headers.first(name: "Referrer-Policy") == "same-origin")
            }
        }
    }

    @Test func errorsArePagesForPeopleAndJSONForTheAPI() async throws {
        try await withApp { app in
            let browser = app.browser()
            let missing = try await browser.get("/no/such/page")
            #expect(missing.status == .notFound)
            #expect(missing.headers.contentType?.subType == "html")
            #expect(missing.main.contains("Page not found"))
            #expect(missing.main.contains("href=\"/\""), "an error page offers a way back")

            let api = try await browser.get("/api/v1/nothing")
            #expect(api.status == .notFound)
            #expect(api.headers.contentType == .json)
            #expect(api.body.contains("\"code\":\"not_found\""))
        }
    }

    @Test func pagesWithoutFormsSetNoCookiesForVisitors() async throws {
        try await withApp { app in
            try await app.browser().signUp("public_p")
            let visitor = app.browser()
            for path in ["/", "/u/public_p", "/people"] {
                let page = try await visitor.get(path)
                #expect(page.headers[.setCookie].isEmpty, "\(path) set a cookie")
            }
        }
    }

    @Test func stylesAndScriptsAreLinkedByVersionAndKeptForAYear() async throws {
        try await withApp { app in
            let browser = app.browser()
            let page = try await browser.get("/")
            let css = try #require(page.body.firstMatch(of: /href="(\/css\/app\.css\?v=[0-9a-f]{12})"/)?.1)
            let js = try #require(page.body.firstMatch(of: /src="(\/js\/app\.js\?v=[0-9a-f]{12})"/)?.1)
            for path in [String(css), String(js)] {
                let file = try await browser.get(path)
                #expect(file.status == .ok)
                #expect(file.headers.first(name: .cacheControl) == "public, max-age=31536000, immutable", "\(path)")
            }
            // An old page asking for another version gets today's file, but only for five minutes.
            for path in ["/css/app.css", "/css/app.css?v=000000000000"] {
                let file = try await browser.get(path)
                #expect(file.status == .ok)
                #expect(file.headers.first(name: .cacheControl) == "public, max-age=300, must-revalidate", "\(path)")
            }
            // The version is the content's: the file the page names is the file on disk.
            let onDisk = try #require(FileManager.default.contents(atPath: app.app.directory.publicDirectory + "css/app.css"))
            #expect(try await browser.get(String(css)).body == String(decoding: onDisk, as: UTF8.self))
        }
    }

    @Test func aBadSettingStopsStartUpNamingTheVariable() throws {
        let cases: [(String, String)] = [
            ("PORT", "eighty"), ("PORT", "70000"), ("FIELDHOUSE_MAX_UPLOAD_MB", "-1"),
            ("FIELDHOUSE_SECURE_COOKIES", "maybe"), ("LOG_LEVEL", "loud"),
            ("DATABASE_URL", "mysql://x@y/z"), ("FIELDHOUSE_BASE_URL", "not a url"),
            ("FIELDHOUSE_TILE_URL", "https://tiles.example.org/map.png"), ("FIELDHOUSE_TILE_URL", "javascript:{z}{x}{y}"),
            ("FIELDHOUSE_CHALLENGE_FLAG_KM", "0"), ("FIELDHOUSE_CHALLENGE_FLAG_KM", "far"),
            ("FIELDHOUSE_TRUSTED_PROXIES", "nginx.local"), ("FIELDHOUSE_TRUSTED_PROXIES", "10.0.0.1,,x"),
            ("FIELDHOUSE_JOB_POLL_SECONDS", "0"), ("FIELDHOUSE_JOB_LEASE_SECONDS", "1"), ("FIELDHOUSE_JOB_LEASE_SECONDS", "nan"),
            ("FIELDHOUSE_SMTP_URL", "mail.example.org"), ("FIELDHOUSE_SMTP_URL", "smtp://:pw@mail.example.org"),
            ("FIELDHOUSE_MAIL_FROM", "Club <not an address>"), ("FIELDHOUSE_MAIL_FROM", "a@b.org\r\nBcc: x@y.org"),
            ("FIELDHOUSE_PUSH_TEST_LOOPBACK", "yes"),
        ]
        for (variable, value) in cases {
            do {
                _ = try AppConfig.fromEnvironment([variable: value])
                Issue.record("\(variable)=\(value) was accepted")
            } catch {
                #expect("\(error)".contains(variable))
            }
        }
        let config = try AppConfig.fromEnvironment(["PORT": "9000", "FIELDHOUSE_DATA_DIR": "/tmp/x", "FIELDHOUSE_MAX_UPLOAD_MB": "5"])
        #expect(config.port == 9000)
        #expect(config.host == "127.0.0.1")
        #expect(config.maxUploadBytes == 5 * 1024 * 1024)
        #expect(config.database == .sqlite(path: "/tmp/x/fieldhouse.sqlite"))
        #expect(try AppConfig.fromEnvironment(["DATABASE_URL": "postgres://u:p@db:5432/fh"]).isPostgres)
        let maps = try AppConfig.fromEnvironment([
            "FIELDHOUSE_TILE_URL": "https://tile.example.org:8443/{z}/{x}/{y}.png", "FIELDHOUSE_CHALLENGE_FLAG_KM": "0.5",
        ])
        #expect(maps.tileOrigin == "https://tile.example.org:8443")
        #expect(maps.challengeFlagMetres == 500)
        #expect(try AppConfig.fromEnvironment(["FIELDHOUSE_TRUSTED_PROXIES": "127.0.0.1, ::1"]).trustedProxies == ["127.0.0.1", "::1"])
        // The start-up line names every setting and no password.
        let summary = try AppConfig.fromEnvironment(["DATABASE_URL": "postgres://fh:s3cret@db:5432/fh"]).startupSummary
        #expect(summary.contains("PostgreSQL at db:5432/fh as fh") && !summary.contains("s3cret"))
    }

    @Test func httpsSitesAskBrowsersToStayOnHTTPS() async throws {
        try await withApp(config: { $0.secureCookies = true }) { app in
            let page = try await app.browser().get("/healthz")
            #expect(page.headers.first(name: "Strict-Transport-Security") == "max-age=31536000")
        }
        try await withApp { app in
            let page = try await app.browser().get("/healthz")
            #expect(page.headers.first(name: "Strict-Transport-Security") == nil, "plain HTTP must not promise HTTPS")
        }
    }

    @Test func seedingTwiceAddsTheDemoPeopleOnce() async throws {
        try await withApp { app in
            let first = try await DemoPeople.seed(app: app.app)
            let second = try await DemoPeople.seed(app: app.app)
            #expect(first >= 12)
            #expect(second == 0)
            let browser = app.browser()
            #expect(try await browser.logIn("maya", password: "fieldhouse-demo").status == .seeOther)
            #expect(try await browser.get("/friends").contains("Jonas Berg"))
        }
    }
}

@Suite("Starting the server")
struct ServeTests {
    @Test func servingMigratesSQLiteButRefusesPendingMigrationsOnPostgres() async throws {
        let store = TestStore.make()
        let app = try await Application.make(.testing)
        do {
            try await configure(app, config: store.config)
            if let schema = store.schema {
                try await app.db.sql.raw("CREATE SCHEMA \(unsafeRaw: schema)").run()
                await #expect(throws: PendingMigrations.self) { try await prepareDatabaseForServing(app) }
                try await app.db.sql.raw("DROP SCHEMA \(unsafeRaw: schema) CASCADE").run()
            } else {
                try await prepareDatabaseForServing(app)
                #expect(try await User.query(on: app.db).count() == 0, "the users table exists")
                try await prepareDatabaseForServing(app)
            }
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
        try? FileManager.default.removeItem(atPath: store.config.dataDirectory)
    }
}

@Suite struct MultipartScannerTests {
    /// Feeds `body` in pieces of `size` and returns (headers, bytes) for each part.
    static func parts(_ body: [UInt8], boundary: String, size: Int) throws -> (parts: [([String: String], [UInt8])], finished: Bool) {
        var scanner = MultipartScanner(boundary: boundary)
        var parts: [([String: String], [UInt8])] = []
        var index = 0
        while index < body.count {
            for event in try scanner.scan(ByteBuffer(bytes: body[index..<min(body.count, index + size)])) {
                switch event {
                case .part(let headers): parts.append((headers, []))
                case .body(let bytes): parts[parts.count - 1].1 += Array(bytes.readableBytesView)
                case .end: break
                }
            }
            index += size
        }
        return (parts, scanner.isFinished)
    }

    @Test func findsEveryPartWhereverTheChunksAreCut() throws {
        // File bytes that look like the start of a delimiter must come through untouched.
        let file: [UInt8] = Array("line one\r\n--AaB0\r\n--AaB03 almost\r\n".utf8) + [0, 255, 13, 10, 45, 45]
        var body = Array("preamble\r\n--AaB03x\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nHi there\r\n".utf8)
        body += Array("--AaB03x\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += file + Array("\r\n--AaB03x\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--AaB03x--\r\n".utf8)
        for size in [1, 2, 3, 7, 13, 64, body.count] {
            let (parts, finished) = try Self.parts(body, boundary: "AaB03x", size: size)
            #expect(finished, "size \(size)")
            #expect(parts.count == 3, "size \(size)")
            #expect(parts.first?.1 == Array("Hi there".utf8), "size \(size)")
            #expect(parts.dropFirst().first?.1 == file, "size \(size)")
            #expect(parts.dropFirst().first?.0["content-type"] == "image/jpeg")
            #expect(parts.last?.1 == [], "size \(size)")
        }
        // Cut off before the closing delimiter: not finished.
        #expect(try Self.parts(Array(body.dropLast(12)), boundary: "AaB03x", size: 50).finished == false)
    }
}
