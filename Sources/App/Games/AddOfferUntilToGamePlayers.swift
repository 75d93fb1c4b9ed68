import Fluent

/// Until when a place offered to the first person on a waitlist is kept for them.
struct AddOfferUntilToGamePlayers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(GamePlayer.schema).field("offer_until", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(GamePlayer.schema).deleteField("offer_until").update()
    }
}
