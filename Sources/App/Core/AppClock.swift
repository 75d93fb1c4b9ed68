import FieldhouseKit
import NIOConcurrencyHelpers
import Vapor

/// Where the app reads the time. Production runs on the system clock; tests set and move it, so a
/// suite that runs across midnight, or a reminder due next Tuesday, is tested without waiting.
/// The clock keeps ticking after it is set: records made a moment apart still sort in order.
///
/// Fluent's own `@Timestamp` fields (created and updated) still use the system clock; they only
/// order and label rows, and nothing compares them with `now`.
final class AppClock: Sendable {
    private struct State {
        var offset: TimeInterval = 0
        /// Set while the clock is stopped: the instant the next read returns.
        var stopped: Date?
    }

    private let state = NIOLockedValueBox(State())

    /// A stopped clock still moves a millisecond per read, so records keep their order.
    var now: Date {
        state.withLockedValue { state in
            guard let instant = state.stopped else { return Date().addingTimeInterval(state.offset) }
            state.stopped = instant.addingTimeInterval(0.001)
            return instant
        }
    }

    /// Makes `now` read `date` from this moment on.
    func set(_ date: Date) {
        state.withLockedValue { state in
            if state.stopped != nil { state.stopped = date }
            state.offset = date.timeIntervalSinceNow
        }
    }

    func advance(by seconds: TimeInterval) {
        state.withLockedValue { state in
            state.offset += seconds
            state.stopped = state.stopped?.addingTimeInterval(seconds)
        }
    }

    /// For a test that counts what happens "within a minute": a slow machine must not let real
    /// seconds pass between its steps. Only `advance` and `set` move a stopped clock.
    func stop() {
        state.withLockedValue { state in
            state.stopped = state.stopped ?? Date().addingTimeInterval(state.offset)
        }
    }

    /// Milliseconds since 1970, the unit workouts and samples are stored in.
    var milliseconds: Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Today's date in UTC, which ages are computed on.
    var today: CalendarDate { LocalTime.utcDay(of: now) }

    /// Today's date where a person lives.
    func today(in zone: String) -> CalendarDate { LocalTime.day(of: now, zone: zone) }
}

extension Application {
    private struct AppClockKey: StorageKey { typealias Value = AppClock }

    /// Created on first use; `configure` touches it before the server starts, so two threads never
    /// race to create it.
    var clock: AppClock {
        if let clock = storage[AppClockKey.self] { return clock }
        let clock = AppClock()
        storage[AppClockKey.self] = clock
        return clock
    }
}

extension Request {
    /// The app's idea of now: use this, never `Date()`, for anything a rule depends on.
    var now: Date { application.clock.now }

    var clock: AppClock { application.clock }
}
