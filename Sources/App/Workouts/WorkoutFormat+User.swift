import Foundation

extension WorkoutFormat {
    /// In the person's units and time zone. Kept apart from `WorkoutFormat` so the formatting alone
    /// builds into the fuzz harnesses, which have no database models.
    init(_ user: User) {
        self.init(imperial: user.units == .imperial, zone: TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!)
    }
}
