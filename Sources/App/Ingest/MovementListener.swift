import FieldhouseKit
import Fluent
import Foundation

/// A feature that follows how people move, from the motion and location samples their devices
/// send (Places: cycling rewards and ride positions). `SampleController` calls every feature in
/// `app.features` that adopts it, without naming any.
protocol MovementListener: Feature {
    /// Called in the request that received a person's samples, with what they say about how the
    /// person is moving, in time order, and the positions received (kept or not), each with when
    /// it arrived; `timeZone` is the person's, for where their day ends.
    static func movementReceived(
        _ events: [CyclingEligibility.Event], positions: [RideFix], by userID: UUID, timeZone: String, now: Date, config: AppConfig,
        on db: any Database
    ) async throws
}
