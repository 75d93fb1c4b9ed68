import Fluent
import Foundation

/// A person's place in a team.
final class Membership: Model, @unchecked Sendable {
    static let schema = "memberships"

    @ID(key: .id) var id: UUID?
    @Parent(key: "team_id") var team: Team
    @Parent(key: "user_id") var user: User
    @Enum(key: "role") var role: Role
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(teamID: UUID, userID: UUID, role: Role) {
        self.$team.id = teamID
        self.$user.id = userID
        self.role = role
    }

    /// Owners are managers too; only they can delete the team or make other owners.
    enum Role: String, Codable, CaseIterable, Sendable, Comparable {
        case owner, manager, coach, player

        var label: String {
            switch self {
            case .owner: t("Owner")
            case .manager: t("Manager")
            case .coach: t("Coach")
            case .player: t("Player")
            }
        }
        var canManage: Bool { self == .owner || self == .manager }

        private var rank: Int { Self.allCases.firstIndex(of: self)! }
        static func < (a: Role, b: Role) -> Bool { a.rank < b.rank }
    }
}

/// Someone asking to join a protected team.
final class JoinRequest: Model, @unchecked Sendable {
    static let schema = "join_requests"

    @ID(key: .id) var id: UUID?
    @Parent(key: "team_id") var team: Team
    @Parent(key: "user_id") var user: User
    @OptionalField(key: "message") var message: String?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(teamID: UUID, userID: UUID, message: String?) {
        self.$team.id = teamID
        self.$user.id = userID
        self.message = message
    }
}

/// An invitation: to one person by username, or a shareable link (only the token's hash is kept).
final class TeamInvite: Model, @unchecked Sendable {
    static let schema = "team_invites"

    @ID(key: .id) var id: UUID?
    @Parent(key: "team_id") var team: Team
    @OptionalParent(key: "invitee_id") var invitee: User?
    @OptionalField(key: "token_hash") var tokenHash: String?
    @Parent(key: "created_by_id") var createdBy: User
    /// Kept but never shown to the invitee: a stranger's invitation to someone under 16 looks sent
    /// to its sender (so it does not reveal the child) and reaches nobody (`PersonAccess.reach`).
    @Field(key: "held") var held: Bool
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() { held = false }

    static func forPerson(teamID: UUID, invitee: UUID, by: UUID) -> TeamInvite {
        let invite = TeamInvite()
        invite.$team.id = teamID
        invite.$invitee.id = invitee
        invite.$createdBy.id = by
        return invite
    }

    /// A shareable link's invitation. Its token is worked out from its id with the server's key, so
    /// the team page can show the link to managers until it is revoked while the database keeps
    /// only the hash.
    static func link(teamID: UUID, by: UUID, secret: ServerSecret) -> (invite: TeamInvite, token: String) {
        let invite = TeamInvite()
        invite.id = UUID()
        invite.$team.id = teamID
        let token = linkToken(invite.id!, secret: secret)
        invite.tokenHash = RandomToken.hash(token)
        invite.$createdBy.id = by
        return (invite, token)
    }

    static func linkToken(_ id: UUID, secret: ServerSecret) -> String {
        secret.token(for: "team-invite", id.uuidString)
    }

    /// The link's token when it can be shown again: links made before tokens came from the key
    /// were random, and only their hash is known.
    func shownToken(secret: ServerSecret) -> String? {
        guard let id, let tokenHash else { return nil }
        let token = Self.linkToken(id, secret: secret)
        return RandomToken.hash(token) == tokenHash ? token : nil
    }
}

extension Membership {
    /// The team's owners and managers: the people who hear of requests and answer for the team.
    static func managerIDs(of teamID: UUID, on db: any Database) async throws -> [UUID] {
        try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$role ~~ [.owner, .manager]).all().map { $0.$user.id }
    }
}
