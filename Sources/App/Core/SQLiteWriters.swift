import Fluent
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// One big SQLite write transaction at a time in this process, the others waiting without a thread.
///
/// SQLite lets one connection write at a time, and SQLiteNIO's busy handler retries at once, without
/// end, on the thread that waits. Four devices posting sample batches at once kept a core spinning
/// on the lock the writer held, through its commit's fsync: a third of the server's CPU in the
/// profile, taken from the writer and from the requests still reading their bodies. Waiting here
/// instead leaves both cores to work. PostgreSQL writes in parallel and never waits here.
///
/// Only the heavy writers queue (sample batches, file imports); others take the lock as before, so
/// a stray write can still spin a while, but never for a whole queue of batches.
final class SQLiteWriters: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Runs `body` (which opens the transaction) once no other queued writer runs. Inside a
    /// transaction, or on PostgreSQL, it runs at once.
    func write<T>(on db: any Database, _ body: () async throws -> T) async throws -> T {
        guard !db.inTransaction, db.sql.dialect.name == "sqlite" else { return try await body() }
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state in
                if !state.busy {
                    state.busy = true
                    return true
                }
                state.waiting.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    private func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

extension Application {
    private struct SQLiteWritersKey: StorageKey { typealias Value = SQLiteWriters }

    /// Created on first use; the features that use it touch it in their `boot`, so two requests
    /// never race to create it.
    var sqliteWriters: SQLiteWriters {
        if let writers = storage[SQLiteWritersKey.self] { return writers }
        let writers = SQLiteWriters()
        storage[SQLiteWritersKey.self] = writers
        return writers
    }
}
