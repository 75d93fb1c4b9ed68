import Foundation

/// Zones by the names people and places store ("Europe/Lisbon"). The one place that turns such a
/// name into a `TimeZone`, so a stored name the system does not know falls back the same way on
/// every page, job and file: to UTC, every account's zone until chosen. `make lint` refuses
/// `TimeZone(identifier:` elsewhere.
extension TimeZone {
    /// UTC under that name (its abbreviation reads "UTC", where `.gmt` reads "GMT").
    public static let utc = TimeZone(identifier: "UTC")!

    /// The zone named `identifier`, or UTC for a name this system does not know.
    public static func named(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? utc
    }

    /// The zone named `identifier`, or nil for a name this system does not know: what a form
    /// checks before it stores a name.
    public static func known(_ identifier: String) -> TimeZone? {
        TimeZone(identifier: identifier)
    }
}
