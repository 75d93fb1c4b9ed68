import Fluent
import Foundation
import SQLKit

/// One person asked to a pick-up game by its organiser or a player. It tells the invitee once, and
/// lets them see the game and join it: an organiser's invitation opens a private game to them and
/// lets them in without a request; a player's counts as a tip, and the game's rules apply.
final class GameInvite: Model, @unchecked Sendable {
    static let schema = "game_invites"

    @ID(key: .id) var id: UUID?
    @Parent(key: "game_id") var game: Game
    @Parent(key: "invitee_id") var invitee: User
    @Parent(key: "inviter_id") var inviter: User
    /// The invitation came from the game's organiser, who may let people into a private or protected game.
    @Field(key: "by_organiser") var byOrganiser: Bool
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(gameID: UUID, invitee: UUID, inviter: UUID, byOrganiser: Bool, at date: Date) {
        $game.id = gameID
        $invitee.id = invitee
        $inviter.id = inviter
        self.byOrganiser = byOrganiser
        createdAt = date
    }

    /// How many people one person may invite to games in a day: enough for a few games' worth of
    /// friends, too few to spam a neighbourhood.
    static let dailyLimit = 40
}

struct CreateGameInvite: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(GameInvite.schema)
            .id()
            .field("game_id", .uuid, .required, .references(Game.schema, .id, onDelete: .cascade))
            .field("invitee_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("inviter_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("by_organiser", .bool, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "game_id", "invitee_id")
            .create()
        try await database.sql.create(index: "game_invites_invitee_idx").on(GameInvite.schema).column("invitee_id").run()
        try await database.sql.create(index: "game_invites_inviter_idx").on(GameInvite.schema).column("inviter_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(GameInvite.schema).delete()
    }
}
