import FieldhouseKit
import Foundation
import NIOCore
import Vapor

/// Every setting Fieldhouse reads from the environment, read once at start-up.
///
/// A value that cannot be used stops start-up with a message naming the variable, so a typo in a
/// deployment never turns into a server quietly running with a default.
public struct AppConfig: Sendable {
    public enum Database: Sendable, Equatable {
        case sqlite(path: String)
        /// `searchPath` lets the test suite give every test its own schema on one server.
        case postgres(url: String, searchPath: String?)
    }

    public var dataDirectory: String
    public var database: Database
    public var host: String
    public var port: Int
    public var baseURL: String
    /// A path as an address that works outside the site: in a calendar app, an e-mail, a device.
    func absolute(_ url: SiteURL, query: [(String, String?)] = []) -> String { baseURL + url.with(query) }
    public var maxUploadBytes: Int
    /// Activity files (GPX of a long ride can be tens of megabytes) are parsed in memory.
    public var maxActivityFileBytes: Int
    public var secureCookies: Bool
    public var logLevel: Logger.Level
    /// Map tiles behind SVG maps, e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`; nil draws
    /// maps without a background.
    public var tileURL: String?
    /// `FIELDHOUSE_TILE_CACHE_MB`: the most the kept tiles may take on disk; past it the least
    /// recently served go.
    public var tileCacheBytes = 512 * 1_048_576
    /// `FIELDHOUSE_LEAFLET_DIR`: the folder of Leaflet (Debian's `libjs-leaflet`), which makes maps
    /// with tiles zoomable and draggable; nil (not installed) leaves every map the server's SVG.
    public var leafletDirectory: String?
    /// Where Debian's `libjs-leaflet` puts Leaflet.
    static let debianLeaflet = "/usr/share/javascript/leaflet"
    /// A challenge reply taken further than this from the challenge's place is flagged to the judge.
    public var challengeFlagMetres: Double = 1000
    /// Addresses of reverse proxies whose `X-Forwarded-For` is believed (nginx in front of the app).
    /// Without them every visitor behind the proxy would share the proxy's address.
    public var trustedProxies: Set<String> = []
    /// `FIELDHOUSE_SECRET_KEY`: the key behind secret addresses (see `ServerSecret`); nil keeps one
    /// in the data folder.
    public var secretKeyHex: String?
    /// `FIELDHOUSE_METRICS_TOKEN`: a bearer token that opens `/metrics` from anywhere; without
    /// it only a direct connection from this machine (no proxy in between) may read it.
    public var metricsToken: String?
    /// `LOG_FORMAT=json`: one JSON object per log line (for a log collector); otherwise plain text.
    public var logsAsJSON = false
    /// When a person counts as arriving by bike (`CyclingEligibility`): `FIELDHOUSE_CYCLING_READINGS`
    /// (readings in a row that move the state), `FIELDHOUSE_CYCLING_MINUTES` (minutes of cycling
    /// before a reward), `FIELDHOUSE_VEHICLE_KMH` (faster is a vehicle).
    public var cyclingRules = CyclingEligibility.Rules()
    /// bcrypt work factor; only the test suite lowers it, to keep thousands of hashes fast.
    public var passwordCost: Int = 12
    /// `FIELDHOUSE_JOB_POLL_SECONDS`: how often `fieldhouse serve` looks for due jobs. A reminder is
    /// sent at most this late.
    public var jobPollSeconds: Double = 2
    /// `FIELDHOUSE_JOB_LEASE_SECONDS`: how long a process may hold a job before another takes it
    /// over, i.e. how soon the work of a process that died is done by another.
    public var jobLeaseSeconds: Double = 300
    /// `FIELDHOUSE_PUSH_TEST_LOOPBACK=1`: Web Push subscriptions may name `http://127.0.0.1:<port>`,
    /// the test push server (`scripts/push-server.py`); otherwise only `https://` push services on
    /// named hosts are sent to. For tests only: a browser never hands over such an address.
    public var pushToLoopback = false
    /// `FIELDHOUSE_SMTP_URL`: where e-mail goes; nil sends none and everything stays in the app.
    var smtp: SMTPSettings?
    /// `FIELDHOUSE_MAIL_FROM`: the sender, "Fieldhouse <sport@example.org>" or a bare address.
    var mailFromName = "Fieldhouse"
    var mailFromAddress: String?
    /// E-mail is on when there is a server and a sender.
    var sendsMail: Bool { smtp != nil && mailFromAddress != nil }
    /// This site's host name, for SMTP's EHLO and the right-hand side of Message-IDs; an address
    /// literal in brackets, as RFC 5321 wants it.
    var mailHost: String {
        let host = (URL(string: baseURL)?.host ?? "localhost").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        switch try? SocketAddress(ipAddress: host, port: 0) {
        case .v4: return "[\(host)]"
        case .v6: return "[IPv6:\(host)]"
        default: return host
        }
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let variable: String
        public let value: String
        public let expected: String
        public var description: String {
            "Configuration error: \(variable)=\"\(value)\" is not valid; expected \(expected)."
        }
    }

    public init(
        dataDirectory: String, database: Database, host: String = "127.0.0.1", port: Int = 8080,
        baseURL: String? = nil, maxUploadMB: Int = 20, maxActivityFileMB: Int = 64, secureCookies: Bool = false,
        logLevel: Logger.Level = .info, tileURL: String? = nil, challengeFlagMetres: Double = 1000
    ) {
        self.tileURL = tileURL
        self.challengeFlagMetres = challengeFlagMetres
        self.dataDirectory = dataDirectory
        self.database = database
        self.host = host
        self.port = port
        self.baseURL = baseURL ?? "http://\(host):\(port)"
        self.maxUploadBytes = maxUploadMB * 1024 * 1024
        self.maxActivityFileBytes = maxActivityFileMB * 1024 * 1024
        self.secureCookies = secureCookies
        self.logLevel = logLevel
    }

    /// Reads the process environment (or the given dictionary, for tests of this function).
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> AppConfig {
        let variables = Variables(env: env)
        let dataDirectory = variables.value("FIELDHOUSE_DATA_DIR") ?? "./data"
        let database = try variables.read(
            "DATABASE_URL", default: Database.sqlite(path: dataDirectory + "/fieldhouse.sqlite"),
            expected: "a postgres://user:password@host:port/database URL"
        ) { url in
            (url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")) && URL(string: url)?.host != nil ? .postgres(url: url, searchPath: nil) : nil
        }
        let host = variables.value("HOST") ?? "127.0.0.1"
        let port = try variables.read("PORT", default: 8080, expected: "a port number from 1 to 65535", Variables.whole(1...65535))
        let baseURL = try variables.read(
            "FIELDHOUSE_BASE_URL", expected: "an http:// or https:// URL such as https://sport.example.org"
        ) { raw -> String? in
            guard let url = URL(string: raw), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else { return nil }
            return raw.hasSuffix("/") ? String(raw.dropLast()) : raw
        }
        let maxUploadMB = try variables.read(
            "FIELDHOUSE_MAX_UPLOAD_MB", default: 20, expected: "a whole number of megabytes from 1 to 1024", Variables.whole(1...1024))
        let maxActivityFileMB = try variables.read(
            "FIELDHOUSE_MAX_ACTIVITY_FILE_MB", default: 64, expected: "a whole number of megabytes from 1 to 1024", Variables.whole(1...1024))
        let secureCookies = try variables.read("FIELDHOUSE_SECURE_COOKIES", default: false, expected: "true or false") { raw -> Bool? in
            switch raw.lowercased() {
            case "1", "true", "yes", "on": true
            case "0", "false", "no", "off": false
            default: nil
            }
        }
        let logLevel = try variables.read(
            "LOG_LEVEL", default: Logger.Level.info, expected: "one of trace, debug, info, notice, warning, error, critical"
        ) { Logger.Level(rawValue: $0.lowercased()) }
        let tileURL = try variables.read(
            "FIELDHOUSE_TILE_URL",
            expected: "a tile URL with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        ) { raw -> String? in
            guard let url = URL(string: raw.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
                url.scheme == "https" || url.scheme == "http", url.host != nil,
                raw.contains("{z}"), raw.contains("{x}"), raw.contains("{y}")
            else { return nil }
            return raw
        }
        let tileCacheMB = try variables.read(
            "FIELDHOUSE_TILE_CACHE_MB", default: 512, expected: "whole megabytes from 16 to 1000000, such as 512", Variables.whole(16...1_000_000))
        var config = AppConfig(
            dataDirectory: dataDirectory, database: database, host: host, port: port, baseURL: baseURL,
            maxUploadMB: maxUploadMB, maxActivityFileMB: maxActivityFileMB, secureCookies: secureCookies, logLevel: logLevel,
            tileURL: tileURL, challengeFlagMetres: 1000
        )
        config.tileCacheBytes = tileCacheMB * 1_048_576
        try config.readOperations(variables)
        try config.readMaps(variables)
        try config.readMail(variables)
        config.cyclingRules = try cyclingRules(variables)
        return config
    }

    /// The environment as `fromEnvironment` reads it: a blank value is no value, and a value that
    /// does not fit stops start-up with `Invalid`, naming the variable and what it expects.
    struct Variables {
        let env: [String: String]

        func value(_ name: String) -> String? {
            guard let raw = env[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }

        /// `parse` of the value, or nil when the variable is not set; `shown` is what the error
        /// repeats of a refused value (a secret is not repeated).
        func read<T>(_ name: String, expected: String, shown: ((String) -> String)? = nil, _ parse: (String) -> T?) throws -> T? {
            guard let raw = value(name) else { return nil }
            guard let parsed = parse(raw) else { throw Invalid(variable: name, value: shown?(raw) ?? raw, expected: expected) }
            return parsed
        }

        func read<T>(_ name: String, default fallback: T, expected: String, shown: ((String) -> String)? = nil, _ parse: (String) -> T?) throws -> T {
            try read(name, expected: expected, shown: shown, parse) ?? fallback
        }

        static func whole(_ range: ClosedRange<Int>) -> (String) -> Int? {
            { raw in Int(raw).flatMap { range.contains($0) ? $0 : nil } }
        }

        static func decimal(_ range: ClosedRange<Double>) -> (String) -> Double? {
            { raw in Double(raw).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } }
        }
    }

    /// Leaflet, when installed: a folder set by name must hold it; the Debian folder is used when there.
    private mutating func readMaps(_ variables: Variables) throws {
        func holdsLeaflet(_ folder: String) -> Bool {
            ["leaflet.min.js", "leaflet.css"].allSatisfy { FileManager.default.isReadableFile(atPath: folder + "/" + $0) }
        }
        leafletDirectory =
            try variables.read(
                "FIELDHOUSE_LEAFLET_DIR", expected: "a folder holding leaflet.min.js and leaflet.css, such as \(Self.debianLeaflet)"
            ) { holdsLeaflet($0) ? $0 : nil } ?? (holdsLeaflet(Self.debianLeaflet) ? Self.debianLeaflet : nil)
    }

    /// Behind a proxy, secrets, logs, metrics, background jobs and the challenges' flag.
    private mutating func readOperations(_ variables: Variables) throws {
        trustedProxies = try variables.read(
            "FIELDHOUSE_TRUSTED_PROXIES", default: [], expected: "IP addresses separated by commas, such as 127.0.0.1,::1"
        ) { raw -> Set<String>? in
            let addresses = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !addresses.isEmpty, addresses.allSatisfy({ (try? SocketAddress(ipAddress: $0, port: 0)) != nil }) else { return nil }
            return Set(addresses)
        }
        metricsToken = try variables.read(
            "FIELDHOUSE_METRICS_TOKEN", expected: "at least 20 letters, digits or -_.~ (for example from `openssl rand -hex 24`)",
            shown: { _ in "…" }
        ) { raw in raw.count >= 20 && raw.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) ? raw : nil }
        pushToLoopback = try variables.read("FIELDHOUSE_PUSH_TEST_LOOPBACK", default: false, expected: "1 or 0") { ["1", "0"].contains($0) ? $0 == "1" : nil }
        logsAsJSON = try variables.read("LOG_FORMAT", default: false, expected: "json or text") { ["json", "text"].contains($0) ? $0 == "json" : nil }
        secretKeyHex = try variables.read(
            "FIELDHOUSE_SECRET_KEY", expected: "64 hexadecimal digits, such as the output of `openssl rand -hex 32`",
            shown: { _ in "(hidden)" }
        ) { ServerSecret.isValid(hex: $0) ? $0.lowercased() : nil }
        let flagKM = try variables.read(
            "FIELDHOUSE_CHALLENGE_FLAG_KM", default: 1.0, expected: "a distance in kilometres greater than 0, such as 1 or 0.5"
        ) { raw in Double(raw).flatMap { $0.isFinite && $0 > 0 && $0 <= 1000 ? $0 : nil } }
        challengeFlagMetres = flagKM * 1000
        jobPollSeconds = try variables.read(
            "FIELDHOUSE_JOB_POLL_SECONDS", default: 2.0, expected: "seconds from 0.1 to 60, such as 2", Variables.decimal(0.1...60))
        jobLeaseSeconds = try variables.read(
            "FIELDHOUSE_JOB_LEASE_SECONDS", default: 300.0, expected: "seconds from 5 to 86400 (longer than any job takes), such as 300",
            Variables.decimal(5...86_400))
    }

    /// The mail server and the sender, which it needs.
    private mutating func readMail(_ variables: Variables) throws {
        smtp = try variables.read(
            "FIELDHOUSE_SMTP_URL",
            expected: "smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465, user and password percent-encoded",
            shown: { $0.contains("@") ? "(hidden)" : $0 }
        ) { SMTPSettings.parse($0) }
        let mailFrom = try variables.read(
            "FIELDHOUSE_MAIL_FROM", expected: "an address, or a name and an address: Fieldhouse <sport@example.org>"
        ) { Self.mailbox($0) }
        if smtp != nil && mailFrom == nil {
            throw Invalid(variable: "FIELDHOUSE_MAIL_FROM", value: "", expected: "the sender's address whenever FIELDHOUSE_SMTP_URL is set")
        }
        if let mailFrom {
            mailFromName = mailFrom.name
            mailFromAddress = mailFrom.address
        }
    }

    /// When a ride counts for rewards: readings in a row, minutes, and the speed of a vehicle.
    private static func cyclingRules(_ variables: Variables) throws -> CyclingEligibility.Rules {
        var rules = CyclingEligibility.Rules()
        if let readings = try variables.read(
            "FIELDHOUSE_CYCLING_READINGS", expected: "a whole number of readings from 1 to 100, such as 3", Variables.whole(1...100))
        {
            rules.readingsInARow = readings
        }
        if let minutes = try variables.read("FIELDHOUSE_CYCLING_MINUTES", expected: "minutes from 0 to 240, such as 10", Variables.decimal(0...240)) {
            rules.cyclingSeconds = minutes * 60
        }
        if let kmh = try variables.read("FIELDHOUSE_VEHICLE_KMH", expected: "a speed in km/h from 20 to 200, such as 60", Variables.decimal(20...200)) {
            rules.vehicleSpeed = kmh / 3.6
        }
        return rules
    }

    /// "Name <address>" or "address".
    static func mailbox(_ raw: String) -> (name: String, address: String)? {
        if let open = raw.lastIndex(of: "<"), raw.hasSuffix(">") {
            let address = String(raw[raw.index(after: open)..<raw.index(before: raw.endIndex)])
            let name = raw[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard MailAddress.isValid(address) else { return nil }
            return (name.isEmpty ? "Fieldhouse" : name, address)
        }
        return MailAddress.isValid(raw) ? ("Fieldhouse", raw) : nil
    }

    /// Creates the data directory and the features' folders in it (`Feature.dataFolders`) if missing.
    func prepareDataDirectory(folders: [DataFolder]) throws {
        for folder in [""] + folders.map({ "/" + $0.path }) {
            try FileManager.default.createDirectory(atPath: dataDirectory + folder, withIntermediateDirectories: true)
        }
    }

    /// The scheme and host of the tile server, for the log.
    public var tileOrigin: String? {
        guard let tileURL, let url = URL(string: tileURL.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
            let scheme = url.scheme, let host = url.host
        else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// The release, logged at start so that a restart (after a crash or an upgrade) is visible in the log.
    public static let version = "2026.11"

    /// One line with every setting, and no secret: the database password is left out.
    public var startupSummary: String {
        let store: String
        switch database {
        case .sqlite(let path): store = "SQLite at \(path)"
        case .postgres(let url, _):
            let parsed = URL(string: url)
            store =
                "PostgreSQL at \(parsed?.host ?? "?")\(parsed?.port.map { ":\($0)" } ?? "")\(parsed?.path ?? "")"
                + (parsed?.user.map { " as \($0)" } ?? "")
        }
        return "Fieldhouse \(Self.version) (pid \(ProcessInfo.processInfo.processIdentifier)) serving http://\(host):\(port) as \(baseURL); "
            + "\(store); data in \(dataDirectory); uploads up to \(maxUploadBytes / 1_048_576) MB, activity files up to "
            + "\(maxActivityFileBytes / 1_048_576) MB; secure cookies \(secureCookies ? "on" : "off"); "
            + "map tiles \(tileOrigin.map { "from \($0) through /tiles" } ?? "off"); trusted proxies \(trustedProxies.isEmpty ? "none" : trustedProxies.sorted().joined(separator: ","));"
            + " challenge flag at \(challengeFlagMetres / 1000) km; secret key \(secretKeyHex == nil ? "in \(dataDirectory)/secret.key" : "from FIELDHOUSE_SECRET_KEY");"
            + " jobs polled every \(jobPollSeconds) s, leased for \(jobLeaseSeconds) s; e-mail \(smtp.map { "via \($0.summary) from \(mailFromAddress ?? "?")" } ?? "off");"
            + " log level \(logLevel.rawValue)\(logsAsJSON ? " as JSON" : ""); metrics \(metricsToken == nil ? "from this machine only" : "with a token")"
    }

    public var isPostgres: Bool {
        if case .postgres = database { return true }
        return false
    }
}

extension Application {
    private struct AppConfigKey: StorageKey { typealias Value = AppConfig }

    /// The configuration `configure` was given; set once, read everywhere.
    public var config: AppConfig {
        get {
            guard let config = storage[AppConfigKey.self] else { fatalError("configure(_:config:) has not run") }
            return config
        }
        set { storage[AppConfigKey.self] = newValue }
    }
}

extension Request {
    /// The visitor's address: the connection's, or when that is a trusted proxy, the nearest address in
    /// `X-Forwarded-For` that is not one (a visitor can prepend anything to the header, not append).
    var clientAddress: String? {
        let direct = remoteAddress?.ipAddress
        let trusted = application.config.trustedProxies
        guard let direct, trusted.contains(direct) else { return direct }
        let forwarded = headers[.xForwardedFor].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        return forwarded.reversed().first { !trusted.contains($0) && !$0.isEmpty } ?? direct
    }
}
