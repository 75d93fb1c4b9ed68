import FieldhouseKit
import Fluent
import Foundation
import SQLKit

extension Database {
    /// Runs `closure` in a transaction, for the caller's reader (language and clock). Fluent's own
    /// `transaction` runs its closure in a task of its own, which starts without the caller's
    /// task-locals: a text written there (a default workout name, a message) would come out in
    /// English whatever the reader's language. `make lint` refuses Fluent's `transaction {` in the app.
    ///
    /// On SQLite the transaction takes the write lock before anything else. Fluent begins a deferred
    /// transaction, whose first read fixes a snapshot; if another connection then commits a write,
    /// this transaction's own first write fails at once with "database is locked" (SQLite cannot move
    /// a snapshot forward, and its busy handler is not asked). An upload arriving while a background
    /// job wrote failed that way with a 500. Deleting nothing from a table takes the lock (waiting
    /// for it like any write) without changing a row.
    func inTransaction<T: Sendable>(_ closure: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        let reader = Reader.current
        let lockFirst = !inTransaction && sql.dialect.name == "sqlite"
        return try await transaction { db in
            if lockFirst { try await db.sql.raw("DELETE FROM _fluent_migrations WHERE 0").run() }
            return try await reader.writeAsync { try await closure(db) }
        }
    }
}

extension Database {
    /// Inside `inTransaction`, before a count that decides whether to insert (a daily limit): makes
    /// every transaction that locks the same row count one after the other, so parallel requests
    /// cannot all count below the limit and all insert. SQLite's `inTransaction` holds the write lock
    /// already; PostgreSQL locks the row until the commit.
    func lockForCount(_ table: String, id: UUID) async throws {
        guard sql.dialect.name != "sqlite" else { return }
        try await sql.raw("SELECT id FROM \(ident: table) WHERE id = \(bind: id) FOR UPDATE").run()
    }
}
