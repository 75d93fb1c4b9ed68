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
        func value(_ name: String) -> String? {
            guard let raw = env[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }

        let dataDirectory = value("FIELDHOUSE_DATA_DIR") ?? "./data"

        var database = Database.sqlite(path: dataDirectory + "/fieldhouse.sqlite")
        if let url = value("DATABASE_URL") {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"),
                URL(string: url)?.host != nil
            else {
                throw Invalid(variable: "DATABASE_URL", value: url, expected: "a postgres://user:password@host:port/database URL")
            }
            database = .postgres(url: url, searchPath: nil)
        }

        let host = value("HOST") ?? "127.0.0.1"
        var port = 8080
        if let raw = value("PORT") {
            guard let parsed = Int(raw), (1...65535).contains(parsed) else {
                throw Invalid(variable: "PORT", value: raw, expected: "a port number from 1 to 65535")
            }
            port = parsed
        }

        var baseURL: String?
        if let raw = value("FIELDHOUSE_BASE_URL") {
            guard let url = URL(string: raw), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw Invalid(variable: "FIELDHOUSE_BASE_URL", value: raw, expected: "an http:// or https:// URL such as https://sport.example.org")
            }
            baseURL = raw.hasSuffix("/") ? String(raw.dropLast()) : raw
        }

        var maxUploadMB = 20
        if let raw = value("FIELDHOUSE_MAX_UPLOAD_MB") {
            guard let parsed = Int(raw), (1...1024).contains(parsed) else {
                throw Invalid(variable: "FIELDHOUSE_MAX_UPLOAD_MB", value: raw, expected: "a whole number of megabytes from 1 to 1024")
            }
            maxUploadMB = parsed
        }

        var maxActivityFileMB = 64
        if let raw = value("FIELDHOUSE_MAX_ACTIVITY_FILE_MB") {
            guard let parsed = Int(raw), (1...1024).contains(parsed) else {
                throw Invalid(variable: "FIELDHOUSE_MAX_ACTIVITY_FILE_MB", value: raw, expected: "a whole number of megabytes from 1 to 1024")
            }
            maxActivityFileMB = parsed
        }

        var secureCookies = false
        if let raw = value("FIELDHOUSE_SECURE_COOKIES") {
            switch raw.lowercased() {
            case "1", "true", "yes", "on": secureCookies = true
            case "0", "false", "no", "off": secureCookies = false
            default:
                throw Invalid(variable: "FIELDHOUSE_SECURE_COOKIES", value: raw, expected: "true or false")
            }
        }

        var logLevel = Logger.Level.info
        if let raw = value("LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: raw.lowercased()) else {
                throw Invalid(variable: "LOG_LEVEL", value: raw, expected: "one of trace, debug, info, notice, warning, error, critical")
            }
            logLevel = parsed
        }

        var tileURL: String?
        if let raw = value("FIELDHOUSE_TILE_URL") {
            guard let url = URL(string: raw.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
                url.scheme == "https" || url.scheme == "http", url.host != nil,
                raw.contains("{z}"), raw.contains("{x}"), raw.contains("{y}")
            else {
                throw Invalid(
                    variable: "FIELDHOUSE_TILE_URL", value: raw,
                    expected: "a tile URL with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png")
            }
            tileURL = raw
        }

        var tileCacheMB = 512
        if let raw = value("FIELDHOUSE_TILE_CACHE_MB") {
            guard let parsed = Int(raw), (16...1_000_000).contains(parsed) else {
                throw Invalid(variable: "FIELDHOUSE_TILE_CACHE_MB", value: raw, expected: "whole megabytes from 16 to 1000000, such as 512")
            }
            tileCacheMB = parsed
        }

        var trustedProxies: Set<String> = []
        if let raw = value("FIELDHOUSE_TRUSTED_PROXIES") {
            let addresses = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !addresses.isEmpty, addresses.allSatisfy({ (try? SocketAddress(ipAddress: $0, port: 0)) != nil }) else {
                throw Invalid(variable: "FIELDHOUSE_TRUSTED_PROXIES", value: raw, expected: "IP addresses separated by commas, such as 127.0.0.1,::1")
            }
            trustedProxies = Set(addresses)
        }

        var metricsToken: String?
        if let raw = value("FIELDHOUSE_METRICS_TOKEN") {
            guard raw.count >= 20, raw.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) else {
                throw Invalid(
                    variable: "FIELDHOUSE_METRICS_TOKEN", value: "…", expected: "at least 20 letters, digits or -_.~ (for example from `openssl rand -hex 24`)")
            }
            metricsToken = raw
        }

        var logsAsJSON = false
        if let raw = value("LOG_FORMAT") {
            guard ["json", "text"].contains(raw) else { throw Invalid(variable: "LOG_FORMAT", value: raw, expected: "json or text") }
            logsAsJSON = raw == "json"
        }

        var secretKeyHex: String?
        if let raw = value("FIELDHOUSE_SECRET_KEY") {
            guard ServerSecret.isValid(hex: raw) else {
                throw Invalid(
                    variable: "FIELDHOUSE_SECRET_KEY", value: "(hidden)", expected: "64 hexadecimal digits, such as the output of `openssl rand -hex 32`")
            }
            secretKeyHex = raw.lowercased()
        }

        var flagKM = 1.0
        if let raw = value("FIELDHOUSE_CHALLENGE_FLAG_KM") {
            guard let parsed = Double(raw), parsed.isFinite, parsed > 0, parsed <= 1000 else {
                throw Invalid(variable: "FIELDHOUSE_CHALLENGE_FLAG_KM", value: raw, expected: "a distance in kilometres greater than 0, such as 1 or 0.5")
            }
            flagKM = parsed
        }

        var jobPollSeconds = 2.0
        if let raw = value("FIELDHOUSE_JOB_POLL_SECONDS") {
            guard let parsed = Double(raw), parsed.isFinite, (0.1...60).contains(parsed) else {
                throw Invalid(variable: "FIELDHOUSE_JOB_POLL_SECONDS", value: raw, expected: "seconds from 0.1 to 60, such as 2")
            }
            jobPollSeconds = parsed
        }

        var jobLeaseSeconds = 300.0
        if let raw = value("FIELDHOUSE_JOB_LEASE_SECONDS") {
            guard let parsed = Double(raw), parsed.isFinite, (5...86_400).contains(parsed) else {
                throw Invalid(
                    variable: "FIELDHOUSE_JOB_LEASE_SECONDS", value: raw, expected: "seconds from 5 to 86400 (longer than any job takes), such as 300")
            }
            jobLeaseSeconds = parsed
        }

        var smtp: SMTPSettings?
        if let raw = value("FIELDHOUSE_SMTP_URL") {
            guard let parsed = SMTPSettings.parse(raw) else {
                throw Invalid(
                    variable: "FIELDHOUSE_SMTP_URL", value: raw.contains("@") ? "(hidden)" : raw,
                    expected: "smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465, user and password percent-encoded")
            }
            smtp = parsed
        }
        var mailFrom: (name: String, address: String)?
        if let raw = value("FIELDHOUSE_MAIL_FROM") {
            guard let parsed = Self.mailbox(raw) else {
                throw Invalid(variable: "FIELDHOUSE_MAIL_FROM", value: raw, expected: "an address, or a name and an address: Fieldhouse <sport@example.org>")
            }
            mailFrom = parsed
        }
        if smtp != nil && mailFrom == nil {
            throw Invalid(variable: "FIELDHOUSE_MAIL_FROM", value: "", expected: "the sender's address whenever FIELDHOUSE_SMTP_URL is set")
        }

        var cyclingRules = CyclingEligibility.Rules()
        if let raw = value("FIELDHOUSE_CYCLING_READINGS") {
            guard let parsed = Int(raw), (1...100).contains(parsed) else {
                throw Invalid(variable: "FIELDHOUSE_CYCLING_READINGS", value: raw, expected: "a whole number of readings from 1 to 100, such as 3")
            }
            cyclingRules.readingsInARow = parsed
        }
        if let raw = value("FIELDHOUSE_CYCLING_MINUTES") {
            guard let parsed = Double(raw), parsed.isFinite, (0...240).contains(parsed) else {
                throw Invalid(variable: "FIELDHOUSE_CYCLING_MINUTES", value: raw, expected: "minutes from 0 to 240, such as 10")
            }
            cyclingRules.cyclingSeconds = parsed * 60
        }
        if let raw = value("FIELDHOUSE_VEHICLE_KMH") {
            guard let parsed = Double(raw), parsed.isFinite, (20...200).contains(parsed) else {
                throw Invalid(variable: "FIELDHOUSE_VEHICLE_KMH", value: raw, expected: "a speed in km/h from 20 to 200, such as 60")
            }
            cyclingRules.vehicleSpeed = parsed / 3.6
        }

        var config = AppConfig(
            dataDirectory: dataDirectory, database: database, host: host, port: port, baseURL: baseURL,
            maxUploadMB: maxUploadMB, maxActivityFileMB: maxActivityFileMB, secureCookies: secureCookies, logLevel: logLevel,
            tileURL: tileURL, challengeFlagMetres: flagKM * 1000
        )
        config.trustedProxies = trustedProxies
        config.tileCacheBytes = tileCacheMB * 1_048_576
        config.secretKeyHex = secretKeyHex
        config.metricsToken = metricsToken
        config.logsAsJSON = logsAsJSON
        config.jobPollSeconds = jobPollSeconds
        config.jobLeaseSeconds = jobLeaseSeconds
        config.cyclingRules = cyclingRules
        config.smtp = smtp
        if let mailFrom {
            config.mailFromName = mailFrom.name
            config.mailFromAddress = mailFrom.address
        }
        return config
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
