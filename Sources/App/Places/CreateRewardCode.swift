import Fluent
import SQLKit

struct CreateRewardCode: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(RewardCode.schema)
            .id()
            .field("place_id", .uuid, .required, .references(Place.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("code", .string, .required)
            .field("day", .string, .required)
            .field("reward_text", .string, .required)
            .field("issued_at", .datetime, .required)
            .field("redeemed_at", .datetime)
            // Once a day per person and place, however many check-ins race.
            .unique(on: "place_id", "user_id", "day")
            .unique(on: "place_id", "code")
            .create()
        // The daily cap counts a place's codes of one day.
        try await database.sql.create(index: "reward_codes_day_idx").on(RewardCode.schema).column("place_id").column("day").run()
        try await database.sql.create(index: "reward_codes_user_idx").on(RewardCode.schema).column("user_id").column("issued_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(RewardCode.schema).delete()
    }
}
