import Fluent
import SQLKit
import Vapor

/// A coach's access to one athlete's training, asked for by either side and active only once the
/// other side accepts. Revoking deletes the row, so access ends with the next request.
final class CoachGrant: Model, @unchecked Sendable {
    static let schema = "coach_grants"

    enum Status: String, Codable, Sendable {
        case pending, active
    }

    /// Who asked: the other side is the one who must accept.
    enum Side: String, Codable, Sendable {
        case coach, athlete
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "coach_id") var coach: User
    @Parent(key: "athlete_id") var athlete: User
    @Enum(key: "status") var status: Status
    @Enum(key: "requested_by") var requestedBy: Side
    /// The team whose coach asked every member at once, if that is how it came.
    @OptionalField(key: "team_id") var teamID: UUID?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @OptionalField(key: "accepted_at") var acceptedAt: Date?
    /// Kept but never shown to the one asked: a stranger's request to someone under 16 looks sent to
    /// its sender and reaches nobody (`PersonAccess.reach`).
    @Field(key: "held") var held: Bool

    init() { held = false }

    init(coach: UUID, athlete: UUID, requestedBy: Side, team: UUID? = nil, held: Bool = false) {
        self.held = held
        self.$coach.id = coach
        self.$athlete.id = athlete
        self.status = .pending
        self.requestedBy = requestedBy
        self.teamID = team
    }
}
