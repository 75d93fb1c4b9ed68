import FieldhouseKit
import Fluent
import Foundation

/// Zones made before routes stopped on a moved circle get one now.
struct AddHiddenCircleToPrivacyZones: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds a single column per ALTER TABLE.
        for field in ["hidden_lat", "hidden_lon", "hidden_radius_m"] {
            try await database.schema(SavedPrivacyZone.schema).field(.string(field), .double).update()
        }
        for zone in try await SavedPrivacyZone.query(on: database).all() {
            zone.hide()
            try await zone.save(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        for field in ["hidden_lat", "hidden_lon", "hidden_radius_m"] {
            try await database.schema(SavedPrivacyZone.schema).deleteField(.string(field)).update()
        }
    }
}
