import Fluent

struct CreateUserSport: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserSport.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("sport", .string, .required)
            .field("skill", .string, .required)
            .unique(on: "user_id", "sport")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserSport.schema).delete()
    }
}
