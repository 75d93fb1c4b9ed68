import NIOConcurrencyHelpers
import Vapor

/// A small in-process cache for things that are costly to draw or render and change rarely:
/// values live under keys that name everything they depend on, so nothing is ever invalidated,
/// only forgotten — the least recently used half once `capacity` is reached.
final class MemoryCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var used: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func get(_ key: String) -> Value? {
        state.withLockedValue { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[key] = entry
            return entry.value
        }
    }

    func set(_ key: String, _ value: Value) {
        state.withLockedValue { state in
            state.clock += 1
            state.entries[key] = Entry(value: value, used: state.clock)
            guard state.entries.count > capacity else { return }
            let cutoff = state.entries.values.map(\.used).sorted()[state.entries.count / 2]
            state.entries = state.entries.filter { $0.value.used >= cutoff }
        }
    }
}
