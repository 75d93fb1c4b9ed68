import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// One feature of the app: a folder with a file named after it that says everything the rest of
/// the app needs to know about it. `routes.swift` lists them and `configure` keeps the list on the
/// application (`app.features`); Core knows none of them by name.
///
/// This protocol holds what Core or several features ask of every feature. A question only one
/// feature asks is a protocol of that feature's own, which the features that answer it adopt
/// (`WorkoutListener` in Workouts, `MovementListener` in Ingest, `PublicPhotos` in Challenges,
/// `TeamCompanion` in Teams): the caller finds them in `app.features` without naming them.
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

    /// Folders under the data directory the feature keeps files in, made at start-up; those
    /// `backedUp` are what `fieldhouse backup` copies besides the database.
    static var dataFolders: [DataFolder] { get }

    /// The route paths the feature declares (its `RoutePattern` enum's cases), whichever feature
    /// registers them, so `RoutePathTests` can hold registrations and links to the one spelling.
    static var routePatterns: [String] { get }

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

    /// Places the feature knows by name that anyone may be shown (a place on the map, a listed
    /// team's ground), for `PlaceFinder`: names starting with `text`, at most `limit`.
    static func knownPlaces(matching text: String, limit: Int, on db: any Database) async throws -> [PlaceMatch]
}

extension Feature {
    static func seedDemo(_ app: Application) async throws -> [String] { [] }
    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] { [] }
    static func resume(_ app: Application) async throws {}
    static var dataFolders: [DataFolder] { [] }
    static var routePatterns: [String] { [] }
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
}

/// A folder under the data directory, relative to it (`photos/originals`).
struct DataFolder: Sendable {
    let path: String
    /// Whether it holds what cannot be made again (uploads), so a backup copies it; a cache or
    /// files made again on request (exports, map tiles) are left out.
    let backedUp: Bool
}

extension Application {
    private struct FeaturesKey: StorageKey { typealias Value = [any Feature.Type] }
    private struct HeaderCountsListKey: StorageKey { typealias Value = [HeaderCount] }

    /// Every feature, in the order `routes.swift` lists them; set once by `configure`, before
    /// anything else is set up, and read wherever every feature is asked something.
    var features: [any Feature.Type] {
        get {
            guard let features = storage[FeaturesKey.self] else { fatalError("configure sets app.features before anything reads it") }
            return features
        }
        set {
            storage[FeaturesKey.self] = newValue
            storage[HeaderCountsListKey.self] = newValue.flatMap { $0.headerCounts }
        }
    }

    /// The counts every signed-in page's header shows, from every feature (read per request, so kept).
    var headerCounts: [HeaderCount] { storage[HeaderCountsListKey.self] ?? [] }

    /// The settings tabs of every feature, by `order`. Made on each use: the labels are in the
    /// language of the page that shows them.
    var settingsTabs: [SettingsTab] { features.flatMap { $0.settingsTabs }.sorted { $0.order < $1.order } }

    /// The data directory's folders every feature keeps files in.
    var dataFolders: [DataFolder] { features.flatMap { $0.dataFolders } }
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
