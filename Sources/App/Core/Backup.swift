import Crypto
import Fluent
import FluentSQLiteDriver
import Foundation
import SQLKit

/// A copy of everything a Fieldhouse keeps: the database as one consistent snapshot (SQLite's
/// `VACUUM INTO`, or `pg_dump` on PostgreSQL, see `PostgresBackup`), the uploaded
/// files, the server's secret, and a manifest of row counts and checksums that `restore` checks
/// before it writes anything.
enum Backup {
    struct Manifest: Codable, Equatable {
        var format = 1
        var takenAt: Date
        var database: String
        /// Rows per table in the copied database (not in the live one, which moves on).
        var rows: [String: Int]
        var files: [Entry]

        struct Entry: Codable, Equatable {
            var path: String
            var bytes: Int
            var sha256: String
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let manifestName = "manifest.json"
    static let databaseName = "fieldhouse.sqlite"
    // What the data directory holds that cannot be made again: the folders features mark
    // `backedUp` (uploads; `Feature.dataFolders`) and the secret behind calendar and unsubscribe
    // links. Each folder is walked from where it really is, so one moved to a bigger disk behind a
    // symbolic link is still copied.
    static let secretName = "secret.key"
    /// The keys a first start makes in the data folder: the server secret and the VAPID key (a new
    /// one would end every browser's push subscription). A restore puts back the backed-up ones.
    static let keyNames = [secretName, VAPIDKey.fileName]

    // MARK: Taking

    /// Copies the live data into `folder` (new or empty) while the server keeps serving. The
    /// database comes first, as one snapshot (`VACUUM INTO` reads it in one transaction), and the
    /// files after it, so every file a copied row names was on disk before the copy began; a
    /// file deleted in between is left out, as its row would be in a later backup.
    static func take(config: AppConfig, folders: [DataFolder], db: any Database, into folder: String, now: Date) async throws -> Manifest {
        try prepareEmpty(folder)
        let name: String
        let rows: [String: Int]
        switch config.database {
        case .sqlite:
            name = databaseName
            try await db.sql.raw("VACUUM INTO \(bind: folder + "/" + name)").run()
            rows = try await rowCounts(ofSQLiteFile: folder + "/" + name)
        case .postgres(let url, let searchPath):
            name = PostgresBackup.dumpName
            rows = try await PostgresBackup.dump(url: url, searchPath: searchPath, db: db, into: folder + "/" + name)
        }
        let copy = folder + "/" + name
        // The copy holds password hashes, addresses, health and places: for the server's user only.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy)
        guard (rows["_fluent_migrations"] ?? 0) > 0 else {
            try? FileManager.default.removeItem(atPath: copy)
            throw Failure(
                "\(config.dataDirectory) holds no Fieldhouse data: run the backup with the server's FIELDHOUSE_DATA_DIR (and DATABASE_URL).")
        }

        var files = [try entry(for: name, in: folder)]
        let manager = FileManager.default
        for relative in try uploadedFiles(in: config.dataDirectory, folders: folders) + keyNames {
            let source = URL(fileURLWithPath: config.dataDirectory + "/" + relative).resolvingSymlinksInPath().path
            guard manager.fileExists(atPath: source) else { continue } // removed since it was listed
            let target = folder + "/" + relative
            try manager.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            do {
                try manager.copyItem(atPath: source, toPath: target)
            } catch  where !manager.fileExists(atPath: source) {
                continue
            }
            files.append(try entry(for: relative, in: folder))
        }
        let manifest = Manifest(takenAt: now, database: config.database.kind, rows: rows, files: files)
        try encoder.encode(manifest).write(to: URL(fileURLWithPath: folder + "/" + manifestName), options: .atomic)
        return manifest
    }

    // MARK: Restoring

    /// Puts a backup into the data directory of `config`, which must hold no data yet. Every file
    /// is checked against the manifest before anything is written, and the database goes in last,
    /// under its real name only once complete: a restore that stops half way leaves no database
    /// that looks whole.
    static func restore(from folder: String, into config: AppConfig, folders: [DataFolder]) async throws -> Manifest {
        let manifest: Manifest
        do {
            manifest = try decoder.decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + manifestName)))
        } catch {
            throw Failure("\(folder) has no readable \(manifestName): is it a Fieldhouse backup?")
        }
        guard manifest.format == 1, ["sqlite", "postgresql"].contains(manifest.database) else {
            throw Failure("The backup is of a kind this version cannot restore (format \(manifest.format), \(manifest.database)).")
        }
        guard manifest.database == config.database.kind else {
            throw Failure(
                manifest.database == "sqlite"
                    ? "This is a backup of SQLite: restore it without DATABASE_URL set."
                    : "This is a backup of PostgreSQL: restore it with DATABASE_URL set to an empty database.")
        }
        let name = manifest.database == "sqlite" ? databaseName : PostgresBackup.dumpName
        guard manifest.files.contains(where: { $0.path == name }) else { throw Failure("The backup's manifest names no database.") }
        let manager = FileManager.default
        for file in manifest.files {
            guard isRestorable(file.path, folders: folders) else { throw Failure("The manifest names a file a backup does not hold: \(file.path)") }
            let attributes = try? manager.attributesOfItem(atPath: folder + "/" + file.path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular, try entry(for: file.path, in: folder) == file else {
                throw Failure("\(file.path) in the backup is not what the manifest says (damaged or changed).")
            }
        }
        switch config.database {
        case .sqlite(let databasePath):
            guard try await rowCounts(ofSQLiteFile: folder + "/" + name) == manifest.rows else {
                throw Failure("The backup's database does not hold the rows its manifest counts.")
            }
            if try await holdsData(databasePath) {
                throw Failure("\(databasePath) already holds data. Restore into an empty data directory.")
            }
        case .postgres(let url, let searchPath):
            if try await PostgresBackup.holdsData(url: url, searchPath: searchPath) {
                throw Failure("The database of DATABASE_URL already has tables. Restore into an empty database (createdb).")
            }
        }
        // The keys a first start made moments ago are replaced; an upload is never overwritten,
        // and every clash is found before the first file is written.
        let uploads = manifest.files.filter { $0.path != name && !keyNames.contains($0.path) }
        if let taken = uploads.first(where: { manager.fileExists(atPath: config.dataDirectory + "/" + $0.path) }) {
            throw Failure("\(config.dataDirectory)/\(taken.path) already exists. Restore into an empty data directory.")
        }
        for file in manifest.files where file.path != name {
            let target = config.dataDirectory + "/" + file.path
            if keyNames.contains(file.path), manager.fileExists(atPath: target) { try manager.removeItem(atPath: target) }
            try manager.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try manager.copyItem(atPath: folder + "/" + file.path, toPath: target)
        }
        // The database last, so a restore stopped half way leaves none that looks whole.
        switch config.database {
        case .sqlite(let databasePath):
            for leftover in [databasePath, databasePath + "-wal", databasePath + "-shm"] where manager.fileExists(atPath: leftover) {
                try manager.removeItem(atPath: leftover)
            }
            let partial = databasePath + ".restoring"
            try? manager.removeItem(atPath: partial)
            try manager.copyItem(atPath: folder + "/" + name, toPath: partial)
            try manager.moveItem(atPath: partial, toPath: databasePath)
        case .postgres(let url, let searchPath):
            // pg_restore writes in one transaction; the counts confirm it wrote what was dumped.
            let rows = try await PostgresBackup.restore(folder + "/" + name, url: url, searchPath: searchPath)
            guard rows == manifest.rows else {
                throw Failure("The restored database does not hold the rows the manifest counts; drop it and try again.")
            }
        }
        return manifest
    }

    // MARK: Pieces

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// A new or empty folder, open to the server's user only.
    private static func prepareEmpty(_ folder: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: folder) {
            guard try manager.contentsOfDirectory(atPath: folder).isEmpty else {
                throw Failure("\(folder) is not empty: give a new folder for the backup.")
            }
            try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        } else {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    /// Regular files under the upload folders, as paths relative to the data directory.
    static func uploadedFiles(in dataDirectory: String, folders: [DataFolder]) throws -> [String] {
        var found: [String] = []
        let manager = FileManager.default
        for folder in folders.filter(\.backedUp).map(\.path) {
            let root = URL(fileURLWithPath: dataDirectory + "/" + folder).resolvingSymlinksInPath().path
            guard let walk = manager.enumerator(atPath: root) else { continue }
            while let relative = walk.nextObject() as? String {
                let attributes = try? manager.attributesOfItem(atPath: root + "/" + relative)
                if attributes?[.type] as? FileAttributeType == .typeRegular { found.append(folder + "/" + relative) }
            }
        }
        return found.sorted()
    }

    /// Size and SHA-256 of a file, read a megabyte at a time.
    private static func entry(for relative: String, in folder: String) throws -> Manifest.Entry {
        guard let handle = FileHandle(forReadingAtPath: folder + "/" + relative) else { throw Failure("\(relative) is missing from \(folder).") }
        defer { try? handle.close() }
        var hash = SHA256()
        var bytes = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
            bytes += chunk.count
        }
        return Manifest.Entry(path: relative, bytes: bytes, sha256: Format.hex(hash.finalize()))
    }

    /// A manifest path names only what a backup holds (the database, the secret, a file in an
    /// upload folder), relative, without `..`, in plain characters: a crafted manifest cannot
    /// make restore write anywhere else.
    private static func isRestorable(_ path: String, folders: [DataFolder]) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let plain =
            !path.hasPrefix("/") && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            && path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-/".unicodeScalars.contains($0) }
        let fixed = [databaseName, PostgresBackup.dumpName] + keyNames
        return plain && (fixed.contains(path) || folders.contains { $0.backedUp && path.hasPrefix($0.path + "/") })
    }

    private static func rowCounts(ofSQLiteFile path: String) async throws -> [String: Int] {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            var counts: [String: Int] = [:]
            let tables = try await connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                .compactMap { $0.column("name")?.string }
            for table in tables {
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let count = try await connection.query("SELECT count(*) AS n FROM \(quoted)").first?.column("n")?.integer ?? 0
                counts[table] = Int(count)
            }
            try await connection.close()
            return counts
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Whether the SQLite file has any table (a file a first start left empty does not count).
    private static func holdsData(_ path: String) async throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        return try await !rowCounts(ofSQLiteFile: path).isEmpty
    }
}

extension AppConfig.Database {
    /// How a backup's manifest names the database it holds.
    var kind: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgresql"
        }
    }
}
