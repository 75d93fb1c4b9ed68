import Fluent
import Foundation

/// A feature that adds to the coach's dashboard what Coaching itself does not know (Live: the
/// athletes recording now). Coaching asks every feature that adopts this, never naming them.
protocol SquadCompanion {
    /// Athletes among `athletes` recording now whom `coach` may watch live.
    static func liveNow(of athletes: [UUID], coach: User, now: Date, on db: any Database) async throws -> [LiveNowCard]
}

extension Features {
    static var squadCompanions: [any SquadCompanion.Type] {
        all.compactMap { $0 as? any SquadCompanion.Type }
    }
}
