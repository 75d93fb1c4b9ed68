import Vapor

/// `fieldhouse backup FOLDER`: a consistent copy of the database, the uploads and the server's
/// secret, taken while the server runs (see `Backup`).
struct BackupCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "folder", help: "A new (or empty) folder for the backup")
        var folder: String
    }

    var help: String { "Copies the database, uploads and secret into a new folder, with a manifest of counts and checksums." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        let manifest = try await Backup.take(config: app.config, folders: app.dataFolders, db: app.db, into: signature.folder, now: app.clock.now)
        context.console.print(Backup.summary(manifest, verb: "Backed up", folder: signature.folder))
    }
}

/// `fieldhouse restore FOLDER`: puts a backup into an empty data directory, after checking every
/// file against the manifest. Run `fieldhouse migrate` afterwards if the backup is older than this version.
struct RestoreCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "folder", help: "A folder `fieldhouse backup` made")
        var folder: String
    }

    var help: String { "Restores a backup into an empty data directory (FIELDHOUSE_DATA_DIR) and, for PostgreSQL, an empty database (DATABASE_URL)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        // `configure` opened the (empty) SQLite database; nothing may hold it while its file is
        // replaced. PostgreSQL is written by pg_restore over its own connection.
        if case .sqlite = app.config.database { await app.databases.shutdownAsync() }
        let manifest = try await Backup.restore(from: signature.folder, into: app.config, folders: app.dataFolders)
        context.console.print(Backup.summary(manifest, verb: "Restored", folder: app.config.dataDirectory))
    }
}

extension Backup {
    static func summary(_ manifest: Manifest, verb: String, folder: String) -> String {
        let rows = manifest.rows.values.reduce(0, +)
        let bytes = manifest.files.reduce(0) { $0 + $1.bytes }
        return
            "\(verb) \(rows) rows in \(manifest.rows.count) tables and \(manifest.files.count) files (\(bytes / 1_048_576) MB), taken \(manifest.takenAt): \(folder)"
    }
}
