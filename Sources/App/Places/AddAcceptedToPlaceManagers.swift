import Fluent
import SQLKit

/// Managing a place is an invitation the person accepts: until then the row gives no rights (no
/// counter, no redeeming). Managers from before invitations stay accepted.
struct AddAcceptedToPlaceManagers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlaceManager.schema).field("accepted", .bool, .required, .sql(.default(true))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlaceManager.schema).deleteField("accepted").update()
    }
}
