import Fluent
import SQLKit

struct CreateGame: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Game.schema)
            .id()
            .field("kind", .string, .required)
            .field("team_id", .uuid, .references(Team.schema, .id, onDelete: .cascade))
            .field("league_id", .uuid, .references(League.schema, .id, onDelete: .setNull))
            .field("opponent_team_id", .uuid, .references(Team.schema, .id, onDelete: .setNull))
            .field("opponent_name", .string)
            .field("organiser_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("sport", .string, .required)
            .field("age_group", .string, .required)
            .field("gender", .string, .required)
            .field("skill", .string, .required)
            .field("privacy", .string, .required)
            .field("starts_at", .datetime, .required)
            .field("duration_minutes", .int, .required)
            .field("time_zone", .string, .required)
            .field("place_name", .string)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("find_lat", .double)
            .field("find_lon", .double)
            .field("description", .string, .required)
            .field("capacity", .int)
            .field("min_players", .int)
            .field("joined_count", .int, .required)
            .field("subs_needed", .int, .required)
            .field("subs_filled", .int, .required)
            .field("status", .string, .required)
            .field("sequence", .int, .required)
            .field("home_score", .int)
            .field("away_score", .int)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .create()
        let sql = database.sql
        try await sql.create(index: "games_team_idx").on(Game.schema).column("team_id").column("starts_at").run()
        try await sql.create(index: "games_organiser_idx").on(Game.schema).column("organiser_id").column("starts_at").run()
        // Nearby search reads only games anyone may find. Partial indexes over exactly those rows,
        // carrying every column the search filters on and the id, so the search never touches the
        // table until it reads the page shown. Searches repeat this predicate word for word
        // (`GameSearch.findable`), which is what lets SQLite and PostgreSQL pick the index.
        for (name, columns) in [
            ("games_find_idx", ["find_lat", "find_lon", "starts_at", "sport", "skill", "age_group", "gender", "team_id", "id"]),
            ("games_find_sport_idx", ["sport", "find_lat", "find_lon", "starts_at", "skill", "age_group", "gender", "team_id", "id"]),
        ] {
            try await sql.raw("CREATE INDEX \(unsafeRaw: name) ON games (\(unsafeRaw: columns.joined(separator: ", "))) WHERE \(unsafeRaw: Self.findable)")
                .run()
        }
    }

    /// Games anyone may find: scheduled, not a private team's, placed, and either a pick-up game or
    /// a team game asking for substitutes.
    static let findable = "status = 'scheduled' AND privacy <> 'private' AND find_lat IS NOT NULL AND (kind = 'pickup' OR subs_filled < subs_needed)"

    func revert(on database: any Database) async throws {
        try await database.schema(Game.schema).delete()
    }
}
