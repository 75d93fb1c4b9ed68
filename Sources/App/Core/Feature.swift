import FieldhouseKit
import Fluent
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

    /// Background work the feature does (`JobRunner`): reminders, sweeps, messages that wait.
    static var jobKinds: [JobKind] { get }

    /// What the feature puts in a person's export, for the export's README.
    static var archiveEntries: [ArchiveEntry] { get }

    /// Adds what the feature keeps about the person to their export.
    static func exportAccount(_ archive: AccountArchive) async throws

    /// Called inside the transaction that deletes a person, before their user row goes, for what
    /// ON DELETE CASCADE cannot do (give up a place in a game the normal way, hand a team on).
    /// Returns what to do once the deletion is committed.
    static func deleteAccount(of userID: UUID, now: Date, on db: any Database, config: AppConfig) async throws -> AfterDeletion

    /// What the feature shows on a person's profile to those who may see all of it.
    static func profileParts(of userID: UUID, on db: any Database) async throws -> ProfileParts

    /// What deleting the person's account would do to things they share with others, told on the
    /// delete-account page before they confirm.
    static func deletionNotices(for userID: UUID, now: Date, on db: any Database) async throws -> [DeletionNotice]

    /// Events the feature adds to a person's own calendar feed (not a team's), in their time zone
    /// and units: reminders, sessions a coach planned.
    static func calendarEvents(for ownerID: UUID, timeZone: String, format: Format, now: Date, on db: any Database) async throws -> [ICalendar.Event]

    /// The feature's entries in a person's feed that the viewer may open, newest first, older than
    /// `before`: at most `limit` of them (see `Feed`).
    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem]

    /// Called in the request that added or finished one of the person's workouts (by hand, from a
    /// file or from a device), on its database: work that follows from it is enqueued here.
    static func workoutRecorded(by userID: UUID, now: Date, on db: any Database) async throws

    /// Called in the request that received a person's motion and location samples (the device
    /// API), with what they say about how the person is moving, in time order, and the positions
    /// received (kept or not), each with when it arrived; `timeZone` is the person's, for where
    /// their day ends.
    static func movementReceived(
        _ events: [CyclingEligibility.Event], positions: [RideFix], by userID: UUID, timeZone: String, now: Date, config: AppConfig,
        on db: any Database
    ) async throws

    /// Whether the photo belongs to something the feature shows everyone (a place's photos), so
    /// `/photos/{id}` serves it to anyone; every other photo follows its challenge's rules.
    static func photoIsPublic(_ photoID: UUID, on db: any Database) async throws -> Bool

    /// Places the feature knows by name that anyone may be shown (a place on the map, a listed
    /// team's ground), for `PlaceFinder`: names starting with `text`, at most `limit`.
    static func knownPlaces(matching text: String, limit: Int, on db: any Database) async throws -> [PlaceMatch]
}

extension Feature {
    static func seedDemo(_ app: Application) async throws -> [String] { [] }
    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] { [] }
    static func resume(_ app: Application) async throws {}
    static var headerCounts: [HeaderCount] { [] }
    static var settingsTabs: [SettingsTab] { [] }
    static var jobKinds: [JobKind] { [] }
    static var archiveEntries: [ArchiveEntry] { [] }
    static func exportAccount(_ archive: AccountArchive) async throws {}
    static func deleteAccount(of userID: UUID, now: Date, on db: any Database, config: AppConfig) async throws -> AfterDeletion { {} }
    static func profileParts(of userID: UUID, on db: any Database) async throws -> ProfileParts { ProfileParts() }
    static func deletionNotices(for userID: UUID, now: Date, on db: any Database) async throws -> [DeletionNotice] { [] }
    static func calendarEvents(for ownerID: UUID, timeZone: String, format: Format, now: Date, on db: any Database) async throws -> [ICalendar.Event] {
        []
    }
    static func feedItems(for viewer: FeedViewer, before: FeedCursor?, limit: Int, on db: any Database) async throws -> [FeedItem] { [] }
    static func workoutRecorded(by userID: UUID, now: Date, on db: any Database) async throws {}
    static func movementReceived(
        _ events: [CyclingEligibility.Event], positions: [RideFix], by userID: UUID, timeZone: String, now: Date, config: AppConfig,
        on db: any Database
    ) async throws {}
    static func photoIsPublic(_ photoID: UUID, on db: any Database) async throws -> Bool { false }
    static func knownPlaces(matching text: String, limit: Int, on db: any Database) async throws -> [PlaceMatch] { [] }
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

    /// Computed on each use: the labels are in the language of the page that shows them.
    static var all: [SettingsTab] { Features.all.flatMap { $0.settingsTabs }.sorted { $0.order < $1.order } }
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
    var community = false
    var places = 0
}

/// What features add to a person's profile page, for those who may see all of it: numbers in the
/// header line and lists below. Nothing private belongs here.
struct ProfileParts: Encodable, Sendable {
    /// "42 challenge points", linking to where they come from.
    struct Count: Encodable, Sendable {
        let number: String
        let label: String
        let url: String
    }

    /// A titled list, such as the person's teams.
    struct List: Encodable, Sendable {
        struct Item: Encodable, Sendable {
            let text: String
            let url: String
            let badge: String
        }

        let heading: String
        let items: [Item]
    }

    var counts: [Count] = []
    var lists: [List] = []
}

/// A heading and lines for the delete-account page. A line is read part by part: a part with a
/// `url` is a link, a `strong` part is emphasised.
struct DeletionNotice: Encodable, Sendable {
    struct Part: Encodable, Sendable {
        let text: String
        var url: String? = nil
        var strong = false
    }

    let heading: String
    let lines: [[Part]]
}
