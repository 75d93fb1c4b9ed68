import FieldhouseKit
import Fluent

/// A person's own maximum and resting heart rate and zone limits, which their coach may set too.
struct AddHeartRateZonesToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds a single column per ALTER TABLE.
        try await database.schema(User.schema).field("max_hr", .int).update()
        try await database.schema(User.schema).field("resting_hr", .int).update()
        try await database.schema(User.schema).field("zone_basis", .string).update()
        try await database.schema(User.schema).field("zone_percents", .string).update()
    }

    func revert(on database: any Database) async throws {
        for field in ["max_hr", "resting_hr", "zone_basis", "zone_percents"] {
            try await database.schema(User.schema).deleteField(.string(field)).update()
        }
    }
}

extension User {
    /// The zones the person or their coach set, or nil to use the general rule.
    var heartRateZones: HeartRateZones? {
        guard let maxHeartRate else { return nil }
        let percents = (zonePercents ?? "").split(separator: ",").compactMap { Int($0) }
        return HeartRateZones(
            maximum: maxHeartRate, resting: restingHeartRate,
            basis: HeartRateZones.Basis(rawValue: zoneBasis ?? "") ?? .maximum,
            percents: percents.count == 5 ? percents : HeartRateZones.defaultPercents)
    }
}
