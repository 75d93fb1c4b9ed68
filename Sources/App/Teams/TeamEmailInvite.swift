import Fluent
import Foundation
import SQLKit

/// An invitation to a team sent to an e-mail address, for someone who may not be on Fieldhouse yet.
/// Its link's token comes from its id and the server's key, so nothing but the token's hash is kept
/// and the sending job can write the link again; it works once, until `expiresAt`.
final class TeamEmailInvite: Model, @unchecked Sendable {
    static let schema = "team_email_invites"

    @ID(key: .id) var id: UUID?
    @Parent(key: "team_id") var team: Team
    @Parent(key: "created_by_id") var createdBy: User
    /// The address, for the team's managers to recognise the invitation by; emptied once it is used.
    @Field(key: "email") var email: String
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "used_at") var usedAt: Date?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    /// How long a link works, and how many addresses one person may invite a day.
    static let lifetime: TimeInterval = 14 * 86_400
    static let dailyLimit = 20

    static func make(teamID: UUID, by: UUID, email: String, now: Date, secret: ServerSecret) -> (invite: TeamEmailInvite, token: String) {
        let invite = TeamEmailInvite()
        invite.id = UUID()
        invite.$team.id = teamID
        invite.$createdBy.id = by
        invite.email = email
        let token = token(invite.id!, secret: secret)
        invite.tokenHash = RandomToken.hash(token)
        invite.expiresAt = now.addingTimeInterval(lifetime)
        invite.createdAt = now
        return (invite, token)
    }

    static func token(_ id: UUID, secret: ServerSecret) -> String {
        secret.token(for: "team-email-invite", id.uuidString)
    }
}

/// One e-mail invitation sent, for the sender's daily limit: kept apart from the invitations,
/// which go with their team, so deleting a team and making another does not start the count again.
final class TeamEmailInviteSend: Model, @unchecked Sendable {
    static let schema = "team_email_invite_sends"

    @ID(key: .id) var id: UUID?
    @Parent(key: "sender_id") var sender: User
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(sender: UUID, at: Date) {
        self.$sender.id = sender
        self.createdAt = at
    }
}

struct CreateTeamEmailInviteSend: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TeamEmailInviteSend.schema)
            .id()
            .field("sender_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .create()
        try await database.sql.create(index: "team_email_invite_sends_sender_idx").on(TeamEmailInviteSend.schema).column("sender_id")
            .column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TeamEmailInviteSend.schema).delete()
    }
}

struct CreateTeamEmailInvite: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TeamEmailInvite.schema)
            .id()
            .field("team_id", .uuid, .required, .references(Team.schema, .id, onDelete: .cascade))
            .field("created_by_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field("email", .string, .required)
            .field("token_hash", .string, .required)
            .field("expires_at", .datetime, .required)
            .field("used_at", .datetime)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        try await database.sql.create(index: "team_email_invites_team_idx").on(TeamEmailInvite.schema).column("team_id").run()
        try await database.sql.create(index: "team_email_invites_sender_idx").on(TeamEmailInvite.schema).column("created_by_id").column("created_at")
            .run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TeamEmailInvite.schema).delete()
    }
}
