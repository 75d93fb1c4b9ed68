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
