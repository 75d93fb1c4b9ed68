import SQLKit
import Vapor

/// One feature of the app: a folder with a file named after it that says everything the rest of
/// the app needs to know about it. `Features.all` lists them; Core knows none of them by name.
///
/// Migrations are the exception: they stay in the one ordered list in `configure.swift`, because
/// the order they landed in is history that every database already has.
protocol Feature: Sendable {
    /// Routes, commands, caches and services the feature sets up. Called once by `configure`.
    static func boot(_ app: Application) throws

    /// Adds the feature's demo data (`fieldhouse seed`), once: running it again adds nothing.
    /// Returns what to tell the person who ran it, or nothing when all was already there.
    static func seedDemo(_ app: Application) async throws -> [String]

    /// Adds the data `make bench` measures against, as far as `options` asks this feature for any.
    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String]

    /// Work `fieldhouse serve` resumes once the database is ready (files left half-made by a restart).
    static func resume(_ app: Application) async throws

    /// Counts shown in the page header for a signed-in person, each a scalar subquery over the
    /// signed-in user `u`: they are folded into the one query `SessionMiddleware` makes anyway.
    static var headerCounts: [HeaderCount] { get }

    /// The feature's tabs on the settings pages.
    static var settingsTabs: [SettingsTab] { get }
}

extension Feature {
    static func seedDemo(_ app: Application) async throws -> [String] { [] }
    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] { [] }
    static func resume(_ app: Application) async throws {}
    static var headerCounts: [HeaderCount] { [] }
    static var settingsTabs: [SettingsTab] { [] }
}

/// A number in the header (unread notifications, replies to judge), read as `layout.counts.<name>`.
struct HeaderCount: Sendable {
    /// A plain identifier, used as the column alias and the template key.
    let name: String
    /// `SELECT COUNT(*) …` over the signed-in user, whose id is `u.id`.
    let subquery: SQLQueryString
}

/// A tab on the settings pages; tabs from every feature are shown together, by `order`.
struct SettingsTab: Sendable {
    let order: Int
    let label: String
    let url: SiteURL

    static let all = Features.all.flatMap { $0.settingsTabs }.sorted { $0.order < $1.order }
}

extension HeaderCount {
    static let all = Features.all.flatMap { $0.headerCounts }
}

/// This request's header counts by name, counted with the session lookup.
struct HeaderCountsKey: StorageKey { typealias Value = [String: Int] }

/// What `fieldhouse seed --bench-…` asks for (see `SeedCommand`).
struct BenchOptions: Sendable {
    var teams = 0
    var games = 0
    var challenges = 0
    var articles = 0
    var training = false
}
