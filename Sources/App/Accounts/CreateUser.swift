import Fluent

struct CreateUser: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema)
            .id()
            .field("username", .string, .required)
            .field("email", .string, .required)
            .field("password_hash", .string, .required)
            .field("display_name", .string, .required)
            .field("search_name", .string, .required)
            .field("role", .string, .required)
            .field("bio", .string)
            .field("birth_date", .string)
            .field("gender", .string, .required)
            .field("height_cm", .double)
            .field("weight_kg", .double)
            .field("home_name", .string)
            .field("home_lat", .double)
            .field("home_lon", .double)
            .field("time_zone", .string, .required)
            .field("units", .string, .required)
            .field("continuous_hr", .bool, .required)
            .field("visibility", .string, .required)
            .field("avatar_file", .string)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .unique(on: "username")
            .unique(on: "email")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).delete()
    }
}
