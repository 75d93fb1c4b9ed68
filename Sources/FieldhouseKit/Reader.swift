import Foundation

/// How a person reads the time of day: "19:30" or "7:30 pm", chosen in their settings.
public enum ClockStyle: String, CaseIterable, Sendable, Codable {
    case twentyFourHour = "24h"
    case twelveHour = "12h"

    /// The clock of whatever is being written now, set with the language (`Reader.write`), so
    /// every time of day `WallClock` writes follows the reader's choice without a parameter.
    /// 24 hours unless chosen: the pages have always read so, in both languages.
    @TaskLocal public static var current: ClockStyle = .twentyFourHour
}

/// Whom a page, notification or e-mail is written for: their language and their clock. Everything
/// that writes for one person binds both at once, so no text comes out in one person's language
/// and another's clock.
public struct Reader: Hashable, Sendable {
    public let language: Language
    public let clock: ClockStyle

    public init(language: Language, clock: ClockStyle) {
        self.language = language
        self.clock = clock
    }

    /// Whoever the current task writes for.
    public static var current: Reader { Reader(language: Language.current, clock: ClockStyle.current) }

    public func write<T>(_ body: () throws -> T) rethrows -> T {
        try Language.$current.withValue(language) { try ClockStyle.$current.withValue(clock) { try body() } }
    }

    public func writeAsync<T>(_ body: () async throws -> T) async rethrows -> T {
        try await Language.$current.withValue(language) { try await ClockStyle.$current.withValue(clock) { try await body() } }
    }
}
