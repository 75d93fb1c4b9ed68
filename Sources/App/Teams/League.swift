import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// A league: teams of one sport playing each other; its standings come from recorded results.
final class League: Model, @unchecked Sendable {
    static let schema = "leagues"

    @ID(key: .id) var id: UUID?
    @Field(key: "slug") var slug: String
    @Field(key: "name") var name: String
    @Field(key: "sport") var sport: String
    @Field(key: "skill") var skill: String
    @Field(key: "age_group") var ageGroup: String
    @Field(key: "gender") var gender: String
    @OptionalField(key: "place_name") var placeName: String?
    @OptionalField(key: "latitude") var latitude: Double?
    @OptionalField(key: "longitude") var longitude: Double?
    @Field(key: "is_private") var isPrivate: Bool
    @Parent(key: "manager_id") var manager: User
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}
}

/// A team's place in a league: invited by the league manager, active once the team's manager accepts.
final class LeagueTeam: Model, @unchecked Sendable {
    static let schema = "league_teams"

    @ID(key: .id) var id: UUID?
    @Parent(key: "league_id") var league: League
    @Parent(key: "team_id") var team: Team
    @Enum(key: "status") var status: Status
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    enum Status: String, Codable, Sendable { case invited, active }

    init() {}

    init(leagueID: UUID, teamID: UUID, status: Status) {
        self.$league.id = leagueID
        self.$team.id = teamID
        self.status = status
    }
}
