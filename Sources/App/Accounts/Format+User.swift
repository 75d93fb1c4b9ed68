import Foundation

extension Format {
    /// In the person's units and time zone. Kept apart from `Format` so the formatting alone
    /// builds into the fuzz harnesses, which have no database models.
    init(_ user: User) {
        self.init(imperial: user.units == .imperial, zone: TimeZone.named(user.timeZone))
    }

    /// For whoever is looking: their units and zone, or metric and UTC when signed out.
    init(viewer: User?) {
        if let viewer { self.init(viewer) } else { self.init(imperial: false, zone: TimeZone.utc) }
    }
}
