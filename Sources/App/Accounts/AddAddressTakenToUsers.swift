import Fluent

/// Sign-up answers alike whether or not an address already has an account. When it has, the new
/// account keeps the address typed here (shown to its owner, never written to) and a stand-in
/// that nobody can mail or sign in with, and the address's owner is told by e-mail.
struct AddAddressTakenToUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("address_taken", .string).update()
        // When the owner of an address was last told of a sign-up with it: one such e-mail a day.
        try await database.schema(User.schema).field("address_notice_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("address_notice_at").update()
        try await database.schema(User.schema).deleteField("address_taken").update()
    }
}
