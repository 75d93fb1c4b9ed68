import Fluent
import SQLKit

/// Routes get pages: who may see each (private for every route saved before), where it starts
/// (for "routes near here"), how much it climbs (worked out from the stored points), and when it was
/// first shared (its moment in the feed).
struct AddVisibilityToRoutes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Route.schema).field("visibility", .string, .required, .sql(.default("private"))).update()
        try await database.schema(Route.schema).field("start_lat", .double).update()
        try await database.schema(Route.schema).field("start_lon", .double).update()
        try await database.schema(Route.schema).field("climb_m", .double, .required, .sql(.default(0))).update()
        try await database.schema(Route.schema).field("shared_at", .datetime).update()
        for route in try await Route.query(on: database).all() {
            let shape = route.shape
            route.startLat = shape.points.first?.latitude
            route.startLon = shape.points.first?.longitude
            route.climb = shape.climb
            try await route.save(on: database)
        }
        try await database.sql.create(index: "routes_start_idx").on(Route.schema).column("start_lat").column("start_lon").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.drop(index: "routes_start_idx").run()
        for field in ["visibility", "start_lat", "start_lon", "climb_m", "shared_at"] {
            try await database.schema(Route.schema).deleteField(FieldKey(stringLiteral: field)).update()
        }
    }
}
