import FieldhouseKit
import Fluent
import Foundation

/// A person's export while it is being written. Accounts makes it and writes the profile; every
/// feature adds the files for what it keeps (`Feature.exportAccount`), so the export is complete
/// without Accounts knowing any other feature's tables.
struct AccountArchive {
    let userID: UUID
    let db: any Database
    let config: AppConfig
    let zip: ZipWriter
    /// When the export was asked for: the files' dates, and what counts as upcoming.
    let now: Date

    /// `value` as pretty, key-sorted JSON, dates as ISO 8601.
    func add(_ name: String, json value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        try zip.add(name, Array(try encoder.encode(value)), modified: now)
    }

    func add(_ name: String, text: String) throws { try zip.add(name, Array(text.utf8), modified: now) }

    func add(_ name: String, bytes: [UInt8], modified: Date) throws { try zip.add(name, bytes, modified: modified) }

    /// A time in the export's one format, RFC 3339 in UTC; "" when there is none.
    static func time(_ date: Date?) -> String {
        date.map { SampleTime.rfc3339(milliseconds: Int64($0.timeIntervalSince1970 * 1000)) } ?? ""
    }
}

/// One line of the export's README: a file or folder and what it holds.
struct ArchiveEntry: Sendable {
    let path: String
    let holds: String
}

/// Work a feature leaves for after a person's deletion is committed (removing their files), so a
/// failed deletion never leaves rows that point at files already gone.
typealias AfterDeletion = @Sendable () -> Void
