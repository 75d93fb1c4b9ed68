import FieldhouseKit
import Fluent
import Foundation

/// One entry of a person's feed (`/feed`, the top of the home page): something they, a person they
/// follow or a team of theirs did. Features contribute entries through `Feature.feedItems`, each
/// deciding with its own rules what the viewer may open; nothing else filters them afterwards.
struct FeedItem: Encodable, Sendable {
    /// When it happened, in milliseconds: the feed's order, newest first.
    let at: Int64
    /// "workout:<id>": unique across features; breaks ties in the order and in the cursor.
    let key: String
    /// "workout", "member", "result": the template's choice of icon and words.
    let kind: String
    let actorName: String
    /// The actor's profile, when it is a person's doing.
    let actorURL: String?
    /// "ran 8.20 km", "joined Riverside Futsal": read after the actor's name.
    let text: String
    /// The name of the thing, linked: the workout's name, the game.
    let title: String
    let url: String
    /// "42:10 · 5:09 /km".
    let detail: String?
    /// Set by `Feed.load` in the viewer's zone, from `shownAt` when there is one.
    var when = ""
    /// The same moment for machines (`<time datetime>`).
    var datetime = ""
    /// The moment the entry shows when it is not `at` (a workout whose start is hidden from the viewer).
    var shownAt: Int64? = nil
    /// The viewer's own doing.
    var isViewers = false
    /// Kudos, for entries that take them (set by Community's `FeedResponses`).
    var kudos = 0
    var gaveKudos = false
    var kudosAction: String? = nil
    var canGiveKudos = false
    /// A button the entry offers the viewer ("I'm in"): a POST to `action`.
    var action: String? = nil
    var actionLabel: String? = nil
    /// Where to send a gift congratulating it, for entries that take gifts.
    var giftURL: String? = nil
    /// Comments, for entries that take them (set by Community's `FeedResponses`).
    var comments = 0
    var commentsURL: String? = nil
}

/// Whose feed it is.
struct FeedViewer: Sendable {
    let id: UUID
    let format: Format
    /// The day relations are judged on (who is under 16).
    let today: CalendarDate
    /// The request's time: what is still to come.
    let now: Date
}

/// Where a page of the feed ends: the last entry shown. The next page starts strictly after it.
struct FeedCursor: Sendable, Equatable {
    let at: Int64
    let key: String

    /// "<ms>~<key>", for the `before` query parameter.
    var text: String { "\(at)~\(key)" }

    init(at: Int64, key: String) {
        self.at = at
        self.key = key
    }

    /// The latest moment a cursor may name: the end of the year 9999, in milliseconds. Anything
    /// beyond would overflow date arithmetic on the way to the database.
    static let latest: Int64 = 253_402_300_799_999

    /// nil for anything that is not a cursor this site made: a time from 1970 to 9999 and a key of
    /// a kind (a short lower-case word; each contributor reads only its own) and a lower-case id.
    init?(text: String?) {
        guard let text, text.utf8.count <= 100, let tilde = text.firstIndex(of: "~"), let at = Int64(text[..<tilde]),
            (0...Self.latest).contains(at)
        else { return nil }
        let key = String(text[text.index(after: tilde)...])
        let parts = key.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, (1...16).contains(parts[0].utf8.count), parts[0].utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }),
            parts[1].utf8.count == 36,
            let id = UUID(uuidString: String(parts[1])), SiteURL.id(id) == parts[1]
        else { return nil }
        self.at = at
        self.key = key
    }

    /// Whether `item` comes after this cursor in the feed's order (is older).
    func precedes(_ item: FeedItem) -> Bool {
        item.at < at || (item.at == at && item.key < key)
    }

    /// The newest moment a contributor must look at, in milliseconds (inclusive).
    var maxAt: Int64 { at }
}

enum Feed {
    static let pageSize = 20
    static let tieSlack = 5

    /// A page of the viewer's feed, newest first, and the cursor of the next page if there is one.
    static func load(
        for viewer: FeedViewer, before: FeedCursor?, limit: Int = pageSize, from features: [any Feature.Type], on db: any Database
    ) async throws -> (
        items: [FeedItem], next: FeedCursor?
    ) {
        var all: [FeedItem] = []
        for feature in features {
            // One more than a page tells that a next page exists; a few more cover entries stored at
            // the cursor's very millisecond that a contributor could not tell from the cursor itself.
            all += try await feature.feedItems(for: viewer, before: before, limit: limit + 1 + tieSlack, on: db)
        }
        let ordered = all.filter { before?.precedes($0) ?? true }.sorted { ($0.at, $0.key) > ($1.at, $1.key) }
        var page = Array(ordered.prefix(limit))
        for index in page.indices {
            let moment = Date(timeIntervalSince1970: Double(page[index].shownAt ?? page[index].at) / 1000)
            page[index].when = viewer.format.shortWhen(moment)
            page[index].datetime = Format.machine(moment)
        }
        let next = ordered.count > limit ? page.last.map { FeedCursor(at: $0.at, key: $0.key) } : nil
        return (page, next)
    }

    /// Milliseconds since 1970 for a stored date, rounded down: dates lose their last bits on a
    /// SQLite round trip, so the feed compares milliseconds, never dates.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded(.down)) ?? 0
    }
}
