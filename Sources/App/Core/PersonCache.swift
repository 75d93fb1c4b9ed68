import Fluent
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// Which people changed, as far as this process knows: every cache of things that depend on one
/// person (`PersonCache`) asks it whether an entry is still good.
///
/// A writer that changes what a person's entries are read from calls `changed(_:on:)` once its
/// write is committed: this process forgets at once, the others when the `LiveBus` signal reaches
/// them (on PostgreSQL a `NOTIFY`, heard once the write is committed). A reader takes a `mark`
/// before it reads the database and stores what it read with it, so a value read before a change
/// is never served after it. Nothing kept is used while the process may miss a change (`trusted`):
/// on PostgreSQL while its listener is not connected, on SQLite while another process uses the
/// store (`StoreNeighbours`); and entries expire after `PersonCache.lifetime` whatever happens.
final class PersonChanges: Sendable {
    /// A moment in this process's record of changes, taken before a read.
    struct Mark: Sendable {
        fileprivate let epoch: UInt64
        fileprivate let sequence: UInt64
    }

    private struct State {
        var sequence: UInt64 = 0
        /// The sequence number of each person's last change.
        var changed: [UUID: UInt64] = [:]
        var epoch: UInt64 = 0
    }

    /// Beyond this many changed people the record starts afresh (and so do all caches).
    private static let capacity = 100_000
    private let state = NIOLockedValueBox(State())
    /// What this process hears now (`Application.personChanges`): nil while it may miss a change,
    /// else a number that changes each time hearing starts again (a listener's new connection).
    private let hearing: @Sendable () -> UInt64?
    private let heard = NIOLockedValueBox<UInt64?>(nil)

    init(hearing: @escaping @Sendable () -> UInt64?) { self.hearing = hearing }

    /// Whether what is kept may be used now. Whenever what this process hears changes (it stopped,
    /// or started again after a gap), everything kept is forgotten: what changed meanwhile was not
    /// heard. Asked and compared under one lock, so two requests cannot split one change.
    func trusted() -> Bool {
        heard.withLockedValue { before in
            let now = hearing()
            if now != before { forgetAll() }
            before = now
            return now != nil
        }
    }

    func mark() -> Mark {
        state.withLockedValue { Mark(epoch: $0.epoch, sequence: $0.sequence) }
    }

    /// Whether nothing about `person` changed after `mark` was taken.
    func unchanged(_ person: UUID, since mark: Mark) -> Bool {
        state.withLockedValue { $0.epoch == mark.epoch && ($0.changed[person] ?? 0) <= mark.sequence }
    }

    /// Forgets what this process keeps about `person`.
    func forget(_ person: UUID) {
        state.withLockedValue { state in
            if state.changed.count >= Self.capacity { state = State(sequence: 0, changed: [:], epoch: state.epoch + 1) }
            state.sequence += 1
            state.changed[person] = state.sequence
        }
    }

    /// Forgets everything, as after a gap in the signals.
    func forgetAll() {
        state.withLockedValue { state in state = State(sequence: 0, changed: [:], epoch: state.epoch + 1) }
    }

    /// After a write that changes what is kept about `person`: forgotten here now, and on every
    /// other process when the signal sent with `db` arrives.
    func changed(_ person: UUID, bus: LiveBus, on db: any Database) async throws {
        forget(person)
        try await bus.publish(LiveTopic.person(person), on: db)
    }
}

/// Values that depend on one person and change rarely, kept in memory under a key (a session's
/// token, say) and good until `PersonChanges` hears the person changed or `lifetime` passes. The
/// least recently used half goes once `capacity` is reached.
final class PersonCache<Value: Sendable>: Sendable {
    static var lifetime: TimeInterval { 60 }

    private struct Entry {
        let person: UUID
        let mark: PersonChanges.Mark
        let value: Value
        let storedAt: Date
        var used: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())
    private let changes: PersonChanges
    let capacity: Int

    init(changes: PersonChanges, capacity: Int) {
        self.changes = changes
        self.capacity = capacity
    }

    func get(_ key: String, now: Date) -> Value? {
        guard changes.trusted() else { return nil }
        return state.withLockedValue { state -> Value? in
            guard var entry = state.entries[key] else { return nil }
            guard changes.unchanged(entry.person, since: entry.mark), now.timeIntervalSince(entry.storedAt) < Self.lifetime,
                now >= entry.storedAt
            else {
                state.entries[key] = nil
                return nil
            }
            state.clock += 1
            entry.used = state.clock
            state.entries[key] = entry
            return entry.value
        }
    }

    /// Keeps `value`, read from the database after `mark` was taken, unless its person changed since.
    func set(_ key: String, person: UUID, mark: PersonChanges.Mark, value: Value, now: Date) {
        guard changes.trusted(), changes.unchanged(person, since: mark) else { return }
        state.withLockedValue { state in
            state.clock += 1
            state.entries[key] = Entry(person: person, mark: mark, value: value, storedAt: now, used: state.clock)
            guard state.entries.count > capacity else { return }
            let cutoff = state.entries.values.map(\.used).sorted()[state.entries.count / 2]
            state.entries = state.entries.filter { $0.value.used >= cutoff }
        }
    }

    /// Drops one entry (a session that ended).
    func remove(_ key: String) {
        state.withLockedValue { _ = $0.entries.removeValue(forKey: key) }
    }
}

/// Tells `PersonChanges` about every saved, changed or deleted `M` (a notification for its
/// recipient, say), so a feature whose rows feed a person's cached values need not remember to
/// at each write. Writes made with the query builder or plain SQL call `changed` themselves.
struct PersonChangeMiddleware<M: Model>: AsyncModelMiddleware {
    let changes: PersonChanges
    let bus: LiveBus
    let person: @Sendable (M) -> UUID?

    func create(model: M, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        try await next.create(model, on: db)
        try await changed(model, on: db)
    }

    func update(model: M, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        try await next.update(model, on: db)
        try await changed(model, on: db)
    }

    func delete(model: M, force: Bool, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        try await next.delete(model, force: force, on: db)
        try await changed(model, on: db)
    }

    private func changed(_ model: M, on db: any Database) async throws {
        guard let person = person(model) else { return }
        try await changes.changed(person, bus: bus, on: db)
    }
}

extension Application {
    /// Adds a model middleware to the database, if there is one: features also boot without one
    /// (to list their routes).
    func useModelMiddleware(_ middleware: any AnyModelMiddleware) {
        guard !databases.ids().isEmpty else { return }
        databases.middleware.use(middleware)
    }

    private struct PersonChangesKey: StorageKey { typealias Value = PersonChanges }

    /// The app's record of changed people, made on first use; the live bus's `person:` signals
    /// from other processes feed it.
    var personChanges: PersonChanges {
        if let changes = storage[PersonChangesKey.self] { return changes }
        // PostgreSQL tells every process of every change while its listener is connected; SQLite
        // tells no other process, so there a process trusts only itself, while it is alone.
        let hearing: @Sendable () -> UInt64?
        switch config.database {
        case .postgres:
            // Not yet: another process forgets when the `NOTIFY` arrives, a moment after the
            // commit, and a person's next request can land there first (a redirect after a form
            // does). Until a writer waits for its signal to reach every listener, processes on
            // PostgreSQL keep nothing; `changed` still signals, so the others are ready for it.
            hearing = { nil }
        case .sqlite(let path):
            let neighbours = StoreNeighbours(database: path)
            hearing = { neighbours?.alone() == true ? 0 : nil }
        }
        let changes = PersonChanges(hearing: hearing)
        storage[PersonChangesKey.self] = changes
        liveBus.listen(prefix: LiveTopic.personPrefix) { rest in
            if let person = UUID(uuidString: String(rest)) { changes.forget(person) } else { changes.forgetAll() }
        }
        return changes
    }
}

extension Request {
    /// After a write that changes what is kept about `person` (`PersonChanges.changed`).
    func personChanged(_ person: UUID) async throws {
        try await application.personChanges.changed(person, bus: application.liveBus, on: db)
    }
}
