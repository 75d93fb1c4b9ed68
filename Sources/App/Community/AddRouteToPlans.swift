import Fluent

/// A plan may name one of the poster's shared routes ("the lakes loop"); deleting the route leaves
/// the plan without it.
struct AddRouteToPlans: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Plan.schema).field("route_id", .uuid, .references(Route.schema, "id", onDelete: .setNull)).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Plan.schema).deleteField("route_id").update()
    }
}
