import Fluent
import Vapor

/// What `fieldhouse serve` does to the database before it listens.
///
/// SQLite is a single-machine database, so applying pending migrations on start is safe. On
/// PostgreSQL several processes may start at once; migrating there is an explicit step
/// (`fieldhouse migrate`), and serving an older schema would fail in confusing ways, so start-up stops.
public func prepareDatabaseForServing(_ app: Application) async throws {
    if app.config.isPostgres {
        // A database never migrated has no migration log yet; creating the empty log is harmless
        // and lets the check below name every migration as pending.
        try await app.migrator.setupIfNeeded().get()
        let pending = try await app.migrator.previewPrepareBatch().get()
        if !pending.isEmpty {
            throw PendingMigrations(names: pending.map { $0.0.name })
        }
    } else {
        try await app.autoMigrate()
    }
}

public struct PendingMigrations: Error, CustomStringConvertible {
    public let names: [String]
    public var description: String {
        "The PostgreSQL database has \(names.count) pending migration(s): \(names.joined(separator: ", ")). "
            + "Run `fieldhouse migrate` with the same DATABASE_URL before starting the server."
    }
}
