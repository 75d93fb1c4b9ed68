import Fluent
import Foundation
import SQLKit

/// One person blocking another: the blocked person can no longer message them, invite them to a
/// team or game, or ask to coach them, and their messages are folded away for the blocker. The
/// blocked person is not told; what they send is refused as if the other could not be reached.
final class Block: Model, @unchecked Sendable {
    static let schema = "blocks"

    @ID(key: .id) var id: UUID?
    @Parent(key: "blocker_id") var blocker: User
    @Parent(key: "blocked_id") var blocked: User
    @OptionalField(key: "created_at") var createdAt: Date?

    init() {}

    init(blocker: UUID, blocked: UUID, at date: Date) {
        self.$blocker.id = blocker
        self.$blocked.id = blocked
        self.createdAt = date
    }

    /// `blocker` blocks `blocked`: besides the block, follows end both ways (so the blocked person
    /// loses what only followers see; `FollowController` lets no follow cross a block), and so do
    /// the team and game invitations between the two and any coaching, which either gave the other.
    static func make(blocker: UUID, blocked: UUID, at date: Date, on db: any Database) async throws {
        try await db.inTransaction { db in
            if try await Block.query(on: db).filter(\.$blocker.$id == blocker).filter(\.$blocked.$id == blocked).first() == nil {
                try await Block(blocker: blocker, blocked: blocked, at: date).create(on: db)
            }
            try await Follow.query(on: db).group(.or) { either in
                either.group(.and) { $0.filter(\.$follower.$id == blocker).filter(\.$followee.$id == blocked) }
                either.group(.and) { $0.filter(\.$follower.$id == blocked).filter(\.$followee.$id == blocker) }
            }.delete()
            try await db.sql.raw(
                """
                DELETE FROM team_invites WHERE (invitee_id = \(bind: blocker) AND created_by_id = \(bind: blocked))
                  OR (invitee_id = \(bind: blocked) AND created_by_id = \(bind: blocker))
                """
            ).run()
            try await db.sql.raw(
                """
                DELETE FROM game_invites WHERE (invitee_id = \(bind: blocker) AND inviter_id = \(bind: blocked))
                  OR (invitee_id = \(bind: blocked) AND inviter_id = \(bind: blocker))
                """
            ).run()
            try await db.sql.raw(
                """
                DELETE FROM coach_grants WHERE (coach_id = \(bind: blocker) AND athlete_id = \(bind: blocked))
                  OR (coach_id = \(bind: blocked) AND athlete_id = \(bind: blocker))
                """
            ).run()
        }
    }

    /// Whether either of the two blocked the other.
    static func between(_ a: UUID, _ b: UUID, on db: any Database) async throws -> Bool {
        try await db.sql.raw(
            """
            SELECT 1 AS found FROM blocks WHERE (blocker_id = \(bind: a) AND blocked_id = \(bind: b)) OR (blocker_id = \(bind: b) AND blocked_id = \(bind: a))
            """
        ).first() != nil
    }

    /// The people `userID` blocked.
    static func blockedIDs(by userID: UUID, on db: any Database) async throws -> Set<UUID> {
        Set(try await Block.query(on: db).filter(\.$blocker.$id == userID).all().map { $0.$blocked.id })
    }
}

struct CreateBlock: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Block.schema)
            .id()
            .field("blocker_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("blocked_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("created_at", .datetime)
            .unique(on: "blocker_id", "blocked_id")
            .create()
        try await database.sql.create(index: "blocks_blocked_idx").on(Block.schema).column("blocked_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Block.schema).delete()
    }
}
